import { defineConfig } from 'vitest/config';

// One runner for every layer. Unit tests run on fake clocks; integration tests talk to the embedded
// cluster over real HTTP on loopback; e2e tests drive Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
