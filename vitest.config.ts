import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './vitest.skipped-reporter.ts'],
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One PostgreSQL for the run (the embedded cluster, or DATABASE_URL's) and the template databases.
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          setupFiles: ['apps/server/src/test/setup-env.ts'],
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'node' } },
    ],
  },
});
