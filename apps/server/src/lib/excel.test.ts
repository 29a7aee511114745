import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * ExcelJS is loaded on first use (lib/excel.ts): the server's whole module graph (app.ts and every module's
 * routes) is imported in a child process, which then reports whether ExcelJS's files were loaded, before and
 * after the first `excel()` call.
 */
const root = path.resolve(import.meta.dirname, '../../../..');

describe('ExcelJS', { timeout: 60_000 }, () => {
  it('is not loaded by the server at start, and is by the first export or import that needs it', () => {
    const dir = path.resolve(import.meta.dirname, '..');
    const code = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/exceljs/'));
      await import(${JSON.stringify(path.join(dir, 'app.ts'))});
      const atStart = loaded();
      const { excel } = await import(${JSON.stringify(path.join(dir, 'lib/excel.ts'))});
      const ExcelJS = await excel();
      console.log(JSON.stringify({ atStart, afterFirstUse: loaded(), workbook: typeof ExcelJS.Workbook, same: (await excel()) === ExcelJS }));
    `;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout.trim().split('\n').pop()!)).toEqual({ atStart: false, afterFirstUse: true, workbook: 'function', same: true });
  });
});
