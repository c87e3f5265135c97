/** Backend tests: unit specs beside the code and integration suites against a real database. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: { '^@spades/common$': '<rootDir>/../common/src/index.ts' },
  testTimeout: 60000,
  // A suite whose beforeAll timed out may finish creating its app after Jest gave up on it; nothing closes that app,
  // and its timers would keep the run alive until CI's limit. Exit when the tests are done (failures still count).
  forceExit: true,
  // `npm test` sets TEST_RESULTS_DIR: the results reporter writes a JSON summary there for the final summary line.
  reporters: process.env.TEST_RESULTS_DIR ? ['default', '<rootDir>/test/support/results-reporter.js'] : ['default'],
  // One migrated PGlite template per run (embedded mode); see test/support/global-setup.ts.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
