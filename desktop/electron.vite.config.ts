import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

const commonSrc = resolve(__dirname, '../common/src/index.ts');

// The server a released app talks to by default (see src/main/settings.ts and build/README.md):
// `SPADES_DEFAULT_API_URL=https://spades.example.org npm run dist:desktop` bakes a community server in.
const defaultApiUrl = JSON.stringify(process.env.SPADES_DEFAULT_API_URL ?? '');
// The generic update feed the installed app checks (src/main/updater.ts, build/README.md "Publishing updates"):
// `SPADES_UPDATE_URL=https://downloads.example.org/spades npm run dist:desktop`. Unset: the build never updates itself.
const updateUrl = JSON.stringify(process.env.SPADES_UPDATE_URL ?? '');

export default defineConfig({
  main: {
    define: { __SPADES_DEFAULT_API_URL__: defaultApiUrl, __SPADES_UPDATE_URL__: updateUrl },
    build: { rollupOptions: { input: resolve(__dirname, 'src/main/index.ts') } },
  },
  preload: { build: { rollupOptions: { input: resolve(__dirname, 'src/preload/index.ts') } } },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Served from app://spades/ (src/main/app-protocol.ts) with SPA fallback: absolute asset URLs keep deep routes
    // such as /table/<id> working after a reload. electron-vite forces './' (for file://) in production builds, so a
    // plugin running after its preset sets '/' back.
    base: '/',
    plugins: [react(), { name: 'spades:absolute-base', config: () => ({ base: '/' }) }],
    resolve: { alias: { '@spades/common': commonSrc } },
    build: { rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') } },
  },
});
