import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/** Server test files that replace modules (vi.mock): they run isolated, each with a module graph of its own. */
function mockingServerTests(dir = 'apps/server/src'): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((name) => {
    const file = path.join(dir, name);
    return file.endsWith('.test.ts') && /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(file, 'utf8')) ? [file] : [];
  });
}
const mocking = mockingServerTests();

const serverTest = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // One PostgreSQL for the run (the embedded cluster, or DATABASE_URL's) and the template databases.
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  setupFiles: ['apps/server/src/test/setup-env.ts'],
} as const;

export default defineConfig({
  test: {
    reporters: ['default', './vitest.skipped-reporter.ts'],
    // Every core (vitest's default leaves one free: one worker on a 2-core box). The server files wait on
    // PostgreSQL and on child processes much of the time: on 2 cores the suite took 143 s with two workers
    // against 234 s with one, and the PostgreSQL run 131 s against 206 s (TEST_WORKERS to change it).
    maxWorkers: Number(process.env.TEST_WORKERS ?? os.availableParallelism()),
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...mocking],
          // The files of a worker share one module graph: the server is imported once per worker, not once
          // per file (the suite takes half the time). Module state is per database (WeakMaps keyed by it),
          // and every file opens a database of its own.
          isolate: false,
          ...serverTest,
        },
      },
      { test: { name: 'server-isolated', include: mocking, ...serverTest } },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'node' } },
    ],
  },
});
