// Ends every run with the failed tests, one line each ("failed: FILE > NAME: first line of the
// error"), then one plain line, "N passed, N failed, N skipped", that any CI can read. The failed
// lines come last so a CI log cut to its tail still names what failed.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: string[] = [];
    for (const module of testModules) {
      const tests = [...module.children.allTests()];
      // A file that fails to load or errors outside its tests has no failed test to count.
      if (module.state() === 'failed' && !tests.some((t) => t.result().state === 'failed')) {
        counts.failed++;
        failures.push(`failed: ${module.relativeModuleId}: ${firstLine(module.errors()[0]?.message)}`);
      }
      for (const test of tests) {
        const result = test.result();
        if (result.state === 'passed') counts.passed++;
        else if (result.state === 'failed') {
          counts.failed++;
          failures.push(
            `failed: ${module.relativeModuleId} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`,
          );
        } else counts.skipped++;
      }
    }
    const lines = [
      ...failures,
      `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

function firstLine(message: string | undefined): string {
  return ((message ?? 'no error message').split('\n')[0] ?? '').slice(0, 300);
}
