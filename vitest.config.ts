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
    // expect.poll waits for a state to arrive; its 1 s default was shorter than a start-up on two
    // cores shared with a browser test (a session's six kinds synced after 1.2 s and failed a check).
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
    // The renderer built once for every browser suite (see test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
  },
});
