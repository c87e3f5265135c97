import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// Renderer unit and component tests (jsdom). The Electron main process has vitest.main.config.mts.
// `npm test` sets TEST_RESULTS_DIR: each runner also writes a JSON report there for the final summary line.
const resultsDir = process.env.TEST_RESULTS_DIR;

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@spades/common': fileURLToPath(new URL('../common/src/index.ts', import.meta.url)) } },
  test: {
    include: ['src/renderer/**/*.spec.ts', 'src/renderer/**/*.spec.tsx'],
    watch: false,
    reporters: resultsDir ? ['default', 'json'] : ['default'],
    outputFile: resultsDir ? { json: `${resultsDir}/desktop-renderer.json` } : undefined,
    environment: 'jsdom',
    setupFiles: ['src/renderer/test/setup.ts'],
    css: false,
    // component tests wait on rendered text: 5 s (the default) is short on a loaded 2-core CI machine
    testTimeout: 15_000,
  },
});
