// Jest reporter: writes the run's counts, and what failed, to $TEST_RESULTS_DIR/backend.json (read by
// scripts/test.mjs, which repeats the failures after the summary: CI logs keep only their tail).
const fs = require('node:fs');
const path = require('node:path');

class ResultsReporter {
  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const failures = [];
    for (const suite of results.testResults) {
      const file = path.relative(process.cwd(), suite.testFilePath);
      if (suite.testExecError) failures.push({ name: file, message: String(suite.testExecError.message ?? '') });
      for (const t of suite.testResults)
        if (t.status === 'failed')
          failures.push({ name: `${file} › ${t.fullName}`, message: t.failureMessages.join('\n') });
    }
    fs.writeFileSync(
      path.join(dir, 'backend.json'),
      JSON.stringify({
        numPassedTests,
        numFailedTests,
        numPendingTests,
        numTodoTests,
        numRuntimeErrorTestSuites,
        failures,
      }),
    );
  }
}

module.exports = ResultsReporter;
