import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Sized for a loaded machine (two cores shared with other work): the slowest tests start
    // several servers or CLI processes in sequence and take a few seconds idle, three to four
    // times that under load. A timeout only costs time when a test hangs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn real servers; two cores, so keep the pool small.
    maxWorkers: 2,
    // Under c8 (`npm run coverage`), workers hand their coverage to c8 as well.
    setupFiles: [
      'test/setup/no-orphans.ts',
      'test/setup/own-cache-dir.ts',
      'test/setup/not-started-by-npx.ts',
      // The node entry's registrations (stdio), for the tests that deep-import the client.
      'test/setup/node-parts.ts',
      ...(process.env.NODE_V8_COVERAGE ? ['test/setup/worker-coverage.ts'] : []),
    ],
  },
});
