/** Full screen on mobile / tablet (web only): follows the document's state, and asks for it 1 s after load. */
import { useEffect, useState } from 'react';
import { isDesktopApp } from '../lib/platform';

export function useFullscreen(mobile: boolean): { fullscreen: boolean; toggle: () => void } {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const on = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    if (mobile && !isDesktopApp()) {
      const t = setTimeout(() => {
        void document.documentElement.requestFullscreen?.().catch(() => undefined);
      }, 1000);
      return () => {
        clearTimeout(t);
        document.removeEventListener('fullscreenchange', on);
      };
    }
    return () => document.removeEventListener('fullscreenchange', on);
  }, [mobile]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return { fullscreen, toggle };
}
