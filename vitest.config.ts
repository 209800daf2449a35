import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start real servers on port 0 and child processes; two cores is the machine.
    pool: 'forks',
  },
});
