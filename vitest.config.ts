import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/support/summary-reporter.js';

/** The mock's tests, run a second time against the SQLite store (one interface, two implementations). */
const STORE_TESTS = [
  'test/mock/{agent-state,attributes,contacts,http,ignored-fields,rules,store}.test.ts',
  'test/api/revision-2.test.ts',
  'test/client/contract.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 20_000,
    // Tests start real servers on port 0 and child processes; forks keep them apart.
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
    projects: [
      { extends: true, test: { name: 'memory', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: STORE_TESTS, env: { MOCK_STORE: 'sqlite' } } },
    ],
  },
});
