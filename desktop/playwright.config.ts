// End-to-end tests of the web client against the real backend (embedded database, temp DATA_DIR, short
// timers), in Debian's Chromium. e2e/global-setup.ts builds what is needed, starts the server on a free
// port and exports its URL as E2E_BASE_URL (or set E2E_BASE_URL yourself to test a running server).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  // One retry: these tests share one server on a 2-core machine, and a test that fails once and then passes is
  // reported as flaky by name (scripts/test.mjs prints it after the summary), not hidden. Twice is a failure.
  retries: 1,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  // `npm test` sets TEST_RESULTS_DIR: a JSON report there feeds the final summary line.
  reporter: process.env.TEST_RESULTS_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_RESULTS_DIR}/desktop-e2e.json` }]]
    : [['list']],
  outputDir: '../test-results/desktop-e2e',
  use: {
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
