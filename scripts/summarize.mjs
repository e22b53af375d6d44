// Adds up the JSON reports of every suite the test command ran and prints one closing line, after
// the name of each failed test (so the end of a long log says what failed).
import { existsSync, readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const flaky = [];

/** Playwright nests suites by file and describe block; specs hold the tests. */
function playwrightFailures(suite, trail) {
  const here = suite.title ? [...trail, suite.title] : trail;
  for (const spec of suite.specs ?? []) {
    const name = [...here, spec.title].join(' › ');
    if (!spec.ok) failures.push(name);
    else if (spec.tests?.some((t) => t.status === 'flaky')) flaky.push(name);
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, here);
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const suite = basename(file, '.json');
  if ('numPassedTests' in report) {
    // Vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const result of report.testResults) {
      const where = relative(process.cwd(), result.name);
      for (const test of result.assertionResults)
        if (test.status === 'failed') failures.push(`${suite}: ${where} › ${test.fullName}`);
      // A file that failed to load has no test results of its own.
      if (result.status === 'failed' && result.assertionResults.length === 0)
        failures.push(`${suite}: ${where} (${result.message.split('\n')[0]})`);
    }
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const child of report.suites ?? []) playwrightFailures(child, [`${suite}:`]);
  }
}
// Passed on the retry (e2e/playwright.config.ts): listed, so a flaky test is seen and mended.
for (const name of flaky) console.log(`FLAKY ${name}`);
for (const name of failures) console.log(`FAILED ${name}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failures.length > 0 ? 1 : 0);
