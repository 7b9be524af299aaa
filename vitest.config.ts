import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real servers; two cores, so keep the pool small.
    maxWorkers: 2,
    setupFiles: ['test/setup/no-orphans.ts'],
  },
});
