import os from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The longest files, by their usual run time, start first: the workers then end about together. */
const SLOW_FIRST = ['shell.test', 'mobile', 'a11y-admin', 'a11y-names', 'shell-tools', 'people', 'stats', 'a11y-institutions', 'codes', 'inspections', 'devices', 'jurisdiction'];
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((name) => f.moduleId.includes(`/tests/${name}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // A test's limit is for a hung test, not a slow box: on a slower 2-core box the suite ran 2.3x longer
    // (17 min against 7.5) and four long flows (a report in four languages, a payout over two sessions)
    // went past 60 s while passing. Two minutes still ends a hung test long before CI's limit.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The server each file starts is the built one (dist/main.js, as `npm start` runs it): built here once.
    globalSetup: ['./global-setup.ts'],
    // Each file runs its own server and browser: two files at a time on a 2-core box (E2E_WORKERS to change it).
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? Math.max(1, Math.min(2, os.availableParallelism()))),
    sequence: { sequencer: SlowFirst },
    // expect.poll's default second is too short for a browser on a busy 2-core box (a click, a request, a
    // refetch and a render under two parallel files): a deletion's row was still there after 1 s in CI.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
