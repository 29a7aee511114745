import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // One browser and one server at a time: CI has two cores.
    fileParallelism: false,
  },
});
