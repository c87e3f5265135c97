// Options of the main window: the security-relevant webPreferences live here so a test pins them.
import type { BrowserWindowConstructorOptions } from 'electron';
import { API_BASE_ARG } from '../shared/bridge';
import { MIN_SIZE } from './window-state';

export interface MainWindowInput {
  preloadPath: string;
  apiBase: string;
  bounds: { width: number; height: number; x?: number; y?: number };
  title: string;
  iconPath?: string;
}

export function mainWindowOptions(inp: MainWindowInput): BrowserWindowConstructorOptions {
  return {
    ...inp.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: inp.title,
    show: false,
    backgroundColor: '#0f1f17',
    autoHideMenuBar: false,
    ...(inp.iconPath ? { icon: inp.iconPath } : {}),
    webPreferences: {
      preload: inp.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      additionalArguments: [`${API_BASE_ARG}${inp.apiBase}`],
    },
  };
}
