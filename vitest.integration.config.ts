import { defineConfig } from 'vitest/config';

// Integration suites: real PostgreSQL / message engines / processes on 127.0.0.1.
export default defineConfig({
  test: {
    include: ['test/integration/**/*.test.ts', 'test/package/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
