// Preload (sandboxed): exposes window.desktop. All logic is in ./bridge (tested).
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopBridge } from './bridge';

contextBridge.exposeInMainWorld('desktop', createDesktopBridge(ipcRenderer, process.argv));
