import { defineConfig } from 'vitest/config';

// `npm test` sets TEST_RESULTS_DIR: each runner also writes a JSON report there for the final summary line.
const resultsDir = process.env.TEST_RESULTS_DIR;

export default defineConfig({
  test: {
    reporters: resultsDir ? ['default', 'json'] : ['default'],
    outputFile: resultsDir ? { json: `${resultsDir}/common.json` } : undefined,
    include: ['src/**/*.spec.ts', 'bench/**/*.spec.ts'],
    watch: false,
    environment: 'node',
    // fast-check properties run hundreds of cases: 5 s (the default) is short on a loaded 2-core CI machine
    testTimeout: 30_000,
  },
});
