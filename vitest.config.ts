import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/conformance/**/*.test.ts',
      'test/security/**/*.test.ts',
      'test/hostile/**/*.test.ts',
      'test/tck/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'test/interop/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
