import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/support/summary-reporter.js';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 20_000,
    // Tests start real servers on port 0 and child processes; forks keep them apart.
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
    include: ['test/**/*.test.ts'],
    // Absolute: the suite's configuration also runs over other roots (test/test-report.test.ts).
    setupFiles: [fileURLToPath(new URL('./test/support/data-dir.ts', import.meta.url))],
  },
});
