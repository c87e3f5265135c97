/**
 * Spec §2: a service worker is registered on load. Web build only: vite-plugin-pwa (configured in
 * desktop/vite.config.mts) generates /sw.js with workbox; we register it with workbox-window, which also
 * resolves in the Electron build (where no service worker is generated and none is registered).
 */
import { isDesktopApp } from './platform';

export function registerServiceWorker(): void {
  if (isDesktopApp() || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (!import.meta.env.PROD || location.protocol === 'file:') return;
  const register = () => {
    void import('workbox-window')
      .then(({ Workbox }) => new Workbox('/sw.js', { scope: '/' }).register())
      .catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
