// Tests of the Electron main process, preload and packaging config (Node environment; Electron is injected, never loaded).
import { defineConfig } from 'vitest/config';

// `npm test` sets TEST_RESULTS_DIR: each runner also writes a JSON report there for the final summary line.
const resultsDir = process.env.TEST_RESULTS_DIR;

export default defineConfig({
  test: {
    reporters: resultsDir ? ['default', 'json'] : ['default'],
    outputFile: resultsDir ? { json: `${resultsDir}/desktop-main.json` } : undefined,
    include: ['src/main/**/*.spec.ts', 'src/preload/**/*.spec.ts', 'src/shared/**/*.spec.ts', '../build/**/*.spec.ts'],
    watch: false,
    environment: 'node',
    // some of these spawn real processes (the container entrypoint, packaging config): headroom on a loaded machine
    testTimeout: 30_000,
  },
});
