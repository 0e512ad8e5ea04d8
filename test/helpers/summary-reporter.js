const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');

/** How many of the slowest files a run lists, to show where its minutes go. */
const SLOWEST = 8;

/**
 * Ends the run with the slowest files (and, with OUTPOST_TEST_TIMES=<file>, every file's seconds as JSON), then the
 * plain line CI reads: `N passed, N failed`.
 */
class SummaryReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({
        file: relative(this.root, file.testFilePath),
        seconds: Math.round((file.perfStats.end - file.perfStats.start) / 100) / 10,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (process.env.OUTPOST_TEST_TIMES) writeFileSync(process.env.OUTPOST_TEST_TIMES, JSON.stringify(files, null, 1));
    if (files.length > SLOWEST) {
      const total = files.reduce((sum, f) => sum + f.seconds, 0);
      process.stdout.write(`\nslowest files (of ${files.length}, ${Math.round(total)} file-seconds):\n`);
      for (const f of files.slice(0, SLOWEST)) process.stdout.write(`  ${String(f.seconds).padStart(6)} s  ${f.file}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `\n${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
