import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from './window';

describe('main window options', () => {
  const o = mainWindowOptions({
    preloadPath: '/app/out/preload/index.js',
    apiBase: 'https://play.example.org',
    bounds: { width: 1200, height: 800, x: 5, y: 6 },
    title: 'Spades',
  });
  it('isolates the renderer: context isolation and sandbox on, no Node anywhere', () => {
    expect(o.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
  it('passes the preload and the API base to the preload', () => {
    expect(o.webPreferences?.preload).toBe('/app/out/preload/index.js');
    expect(o.webPreferences?.additionalArguments).toEqual(['--spades-api-base=https://play.example.org']);
  });
  it('uses the remembered bounds and waits for ready-to-show', () => {
    expect(o).toMatchObject({ width: 1200, height: 800, x: 5, y: 6, show: false, title: 'Spades' });
  });
});
