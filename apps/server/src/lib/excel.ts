import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * ExcelJS, loaded on first use: an export to XLSX or a device import from a spreadsheet. With its
 * dependencies (archiver, unzipper, sax and more) it was the largest part of the server's start-up and of
 * its idle memory (docs/benchmarks.md). Nothing else needs it.
 */
export function excel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => (m as { default?: typeof ExcelJS }).default ?? (m as unknown as typeof ExcelJS));
  return loading;
}
