import type { Reporter, TestModule } from 'vitest/node';

/**
 * Names every skipped test at the end of a run: on the embedded database the concurrency and
 * multi-process tests skip themselves ("(PostgreSQL only)"), and a reader of the CI log should see
 * which ones, not a bare count.
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
