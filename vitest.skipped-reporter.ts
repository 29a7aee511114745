import type { Reporter, TestModule } from 'vitest/node';

/**
 * Names every skipped test at the end of a run. None are expected (every server test, concurrency
 * ones included, runs on a real multi-connection PostgreSQL); should one skip itself, a reader of the
 * CI log sees which, not a bare count.
 */
export default class SkippedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const names: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        if (test.result().state === 'skipped') names.push(`${mod.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
      }
    }
    if (!names.length) return;
    process.stdout.write(`\nSkipped tests (${names.length}):\n${names.map((n) => `  - ${n}`).join('\n')}\n`);
  }
}
