/*
 * The one cell rule of every file the product writes for a spreadsheet (OWASP ASVS 1.2.10, CWE-1236): a
 * text cell that starts with `=`, `+`, `-`, `@`, a tab, a carriage return or NUL gets a leading `'`, so a
 * spreadsheet never reads it as a formula. Numbers stay numbers (a negative amount is not text). The
 * server's exports (apps/server lib/export.ts) and the files the web app makes itself (the secrets of
 * imported devices) write their cells through these functions.
 */

export type Cell = string | number | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\0]/;

/** A text cell a spreadsheet would take for a formula gets a leading apostrophe. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A date as the files write it: ISO 8601 in UTC, to the second. */
const isoSecond = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** One CSV field (RFC 4180): neutralised text, quoted when it holds a quote, a comma, a line break or edge spaces. */
export function csvField(cell: Cell): string {
  if (cell == null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = cell instanceof Date ? isoSecond(cell) : neutralise(cell);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export const csvLine = (cells: readonly Cell[]): string => `${cells.map(csvField).join(',')}\r\n`;

/** A whole small CSV file: a BOM (so Excel reads Chinese right), the title row, then the rows. */
export const csvText = (titles: readonly string[], rows: readonly (readonly Cell[])[]): string => `\uFEFF${csvLine(titles)}${rows.map(csvLine).join('')}`;
