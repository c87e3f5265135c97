import { describe, expect, it, vi } from 'vitest';
import { memoryLogger } from './logger';
import {
  applyNavigationPolicy,
  decideNavigation,
  isSafeExternalUrl,
  originOf,
  type NavigableContents,
} from './navigation';
import { isPermissionAllowed } from './permissions';

const APP = 'app://spades';

describe('decideNavigation', () => {
  it.each([
    ['app://spades/table/abc', 'allow'],
    ['app://spades/', 'allow'],
    ['https://discord.com/oauth2/authorize?x=1', 'external'],
    ['http://example.org/rules', 'external'],
    ['app://evil/', 'deny'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['data:text/html,<script>1</script>', 'deny'],
    ['spades://table/abc', 'deny'],
    ['smb://host/share', 'deny'],
    ['https://user:pw@evil.example/', 'deny'],
    ['not a url', 'deny'],
    ['about:blank', 'deny'],
  ])('%s → %s', (url, expected) => {
    expect(decideNavigation(url, APP)).toBe(expected);
  });

  it('treats the dev server origin as the app origin in development', () => {
    expect(decideNavigation('http://localhost:5173/table/x', 'http://localhost:5173')).toBe('allow');
    expect(decideNavigation('http://localhost:5174/', 'http://localhost:5173')).toBe('external');
  });

  it('originOf gives null for opaque origins', () => {
    expect(originOf('file:///x')).toBeNull();
    expect(originOf('app://spades/x')).toBe('app://spades');
  });

  it('isSafeExternalUrl rejects non-strings, overlong and control characters', () => {
    expect(isSafeExternalUrl(42)).toBe(false);
    expect(isSafeExternalUrl(`https://x.example/${'a'.repeat(3000)}`)).toBe(false);
    expect(isSafeExternalUrl('https://x.example/\n')).toBe(false);
    expect(isSafeExternalUrl('https://x.example/ok')).toBe(true);
  });
});

describe('applyNavigationPolicy', () => {
  function fakeContents() {
    type NavEvent = { url: string; preventDefault(): void };
    const listeners = new Map<string, (e: NavEvent) => void>();
    let openHandler: ((d: { url: string }) => { action: 'deny' } | { action: 'allow' }) | undefined;
    const contents: NavigableContents = {
      on: ((event: string, l: (e: NavEvent) => void) => {
        listeners.set(event, l);
        return contents;
      }) as NavigableContents['on'],
      setWindowOpenHandler: (h) => {
        openHandler = h;
      },
    };
    const navigate = (event: string, url: string) => {
      const e = { url, preventDefault: vi.fn() };
      listeners.get(event)!(e);
      return e.preventDefault.mock.calls.length > 0;
    };
    return { contents, navigate, listeners, open: (url: string) => openHandler!({ url }) };
  }

  const setup = () => {
    const f = fakeContents();
    const openExternal = vi.fn();
    const log = memoryLogger();
    applyNavigationPolicy(f.contents, { appOrigin: APP, openExternal, log });
    return { ...f, openExternal, log };
  };

  it('lets same-origin navigation through', () => {
    const { navigate, openExternal } = setup();
    expect(navigate('will-navigate', 'app://spades/table/1')).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });
  it('sends external http(s) navigation to the system browser', () => {
    const { navigate, openExternal } = setup();
    expect(navigate('will-navigate', 'https://discord.com/login')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://discord.com/login');
  });
  it('denies and logs other schemes, also on redirects', () => {
    const { navigate, openExternal, log } = setup();
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-redirect', 'javascript:alert(1)')).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
    expect(log.lines).toHaveLength(2);
  });
  it('never opens new windows; external window.open goes to the browser', () => {
    const { open, openExternal } = setup();
    expect(open('https://example.org/')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://example.org/');
    expect(open('app://spades/table/2')).toEqual({ action: 'deny' });
    expect(open('file:///x')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
  it('blocks <webview> attachment', () => {
    const { listeners } = setup();
    const e = { url: '', preventDefault: vi.fn() };
    listeners.get('will-attach-webview')!(e);
    expect(e.preventDefault).toHaveBeenCalled();
  });
});

describe('isPermissionAllowed', () => {
  it('allows only full screen / clipboard write for the app origin', () => {
    expect(isPermissionAllowed('fullscreen', 'app://spades/table/1', APP)).toBe(true);
    expect(isPermissionAllowed('fullscreen', 'https://evil.example/', APP)).toBe(false);
    expect(isPermissionAllowed('media', 'app://spades/', APP)).toBe(false);
    expect(isPermissionAllowed('geolocation', 'app://spades/', APP)).toBe(false);
    expect(isPermissionAllowed('notifications', 'app://spades/', APP)).toBe(false);
  });
});
