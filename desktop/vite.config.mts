// The web build of the renderer (served by the backend at /). The Electron build is electron.vite.config.ts.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

const commonSrc = fileURLToPath(new URL('../common/src/index.ts', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: '/',
  plugins: [
    react(),
    // Service worker (web only): precache the app shell; never cache the API or the socket.
    VitePWA({
      injectRegister: null, // registered by src/renderer/lib/sw.ts with workbox-window
      registerType: 'autoUpdate',
      filename: 'sw.js',
      manifest: {
        name: 'Spades',
        short_name: 'Spades',
        description: 'Online Spades: partners and solo games for coins',
        theme_color: '#0f172a',
        background_color: '#0b1120',
        display: 'standalone',
        start_url: '/',
        // PNG sizes for installers and launchers (desktop/scripts/web-icons.mjs renders them from icon.svg)
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,webmanifest,png,ico}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /^\/health$/],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  resolve: { alias: { '@spades/common': commonSrc } },
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // react-dom + router + socket.io + radix are ~500 kB minified (~165 kB gzip); the table is a lazy chunk.
    chunkSizeWarningLimit: 700,
    // Everything the first page needs (statically imported from the entry) in one chunk: split by Rolldown's default
    // into a dozen chunks it compressed ~10 KB worse (issue 15's 200 KB lobby budget). Lazy pages stay their own chunks.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/socket.io': { target: 'http://localhost:3000', ws: true } } },
});
