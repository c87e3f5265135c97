// Jest reporter: writes the run's counts to $TEST_RESULTS_DIR/backend.json (read by scripts/test.mjs).
const fs = require('node:fs');
const path = require('node:path');

class ResultsReporter {
  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    fs.writeFileSync(
      path.join(dir, 'backend.json'),
      JSON.stringify({ numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites }),
    );
  }
}

module.exports = ResultsReporter;
