import { once } from 'node:events';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import type { SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Tx } from '../db/client';
import { type Cell, csvField, csvLine, neutralise } from '@app/contract/csv';
import { excel } from './excel';
import { cappedCount, keysetRows, type SortKey } from './list';

/*
 * Lists as files: CSV (UTF-8 with a BOM, so Excel reads Chinese right; RFC 4180 quoting; CRLF) and XLSX
 * (ExcelJS's streaming writer: rows are committed as they are written). One cell rule for both, the
 * contract's `neutralise` (@app/contract/csv: a text cell that starts with `=`, `+`, `-`, `@`, a tab, a
 * carriage return or NUL gets a leading `'`). Numbers stay numbers (a negative amount is not text), dates
 * are written as UTC (ISO text in CSV, date cells in XLSX).
 *
 * Rows may come as an async iterable (a list read from the database in batches, see `exportList`): the
 * file is written as they come, with backpressure (CSV: a Readable pulls the generator; XLSX: the loop
 * waits for the response to drain), so memory stays flat however many rows there are. A client that
 * goes away stops the reading.
 *
 * Every list exports through `exportList(db, ctx.reply, { format, filename, columns, where, key, fetch })`.
 */

/** The most rows one export writes (memory stays flat, this bounds the time and the file). */
export const EXPORT_MAX_ROWS = 1_000_000;

type Rows<R> = Iterable<R> | AsyncIterable<R>;

export { type Cell, csvField, neutralise };

export interface ExportColumn<R> {
  /** The column title, already in the reader's language. */
  title: string;
  value: (row: R) => Cell;
  /** XLSX column width in characters. */
  width?: number;
}

export type ExportFormat = 'csv' | 'xlsx';

/** A list row's timestamp (ISO text or null) as a date cell of the files. */
export const dateCell = (v: string | null) => (v ? new Date(v) : null);

/** The CSV text of a list: BOM, title row, one line per row, CRLF line ends. */
export async function* csvLines<R>(columns: readonly ExportColumn<R>[], rows: Rows<R>): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(columns.map((c) => c.title))}`;
  let chunk = '';
  let count = 0;
  // A few hundred lines per chunk: one stream write per row would cost more than the rows.
  for await (const row of rows) {
    chunk += csvLine(columns.map((c) => c.value(row)));
    if (++count % 200 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** An XLSX cell value: neutralised text, plain numbers and dates. */
function xlsxValue(cell: Cell): string | number | Date | null {
  if (cell == null) return null;
  if (typeof cell === 'string') return neutralise(cell);
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  return cell;
}

/** Waits until `target` has drained its buffer, or `output` closed (a client gone); no listener is left behind. */
async function drained(target: Writable, output: Writable): Promise<void> {
  // archiver's streams come from readable-stream 2, which has no `writableNeedDrain`: its state has the flag.
  const needDrain = target.writableNeedDrain ?? (target as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain;
  if (!needDrain || output.destroyed) return;
  const done = new AbortController();
  try {
    await Promise.race([once(target, 'drain', { signal: done.signal }), once(output, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}

/**
 * ExcelJS writes a sheet's rows into a buffer that archiver reads through a PassThrough of its own, and
 * nothing there waits for archiver (it zips entry by entry, behind the response): that PassThrough is
 * where rows pile up when the file is made faster than it is zipped and sent. Read from ExcelJS's
 * internals (`sheet.stream.pipes`), measured in bench/export.ts; absent in another version, the wait
 * falls back to the response alone.
 */
const zipInput = (sheet: unknown): Writable | undefined => (sheet as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];

/**
 * Writes a one-sheet workbook to `stream` with ExcelJS's streaming writer: a bold title row frozen at
 * the top, then the rows, each committed (written out) at once. Resolves when the file is complete.
 */
export async function writeXlsx<R>(stream: Writable, sheetName: string, columns: readonly ExportColumn<R>[], rows: Rows<R>, aborted: () => boolean = () => false): Promise<void> {
  const ExcelJS = await excel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  // Sheet names: at most 31 characters, none of []:*?/\ (Excel refuses the file otherwise).
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ key: String(i), width: c.width ?? Math.min(40, Math.max(10, c.title.length + 4)) }));
  const head = sheet.addRow(columns.map((c) => neutralise(c.title)));
  head.font = { bold: true };
  head.commit();
  let count = 0;
  for await (const row of rows) {
    if (aborted()) return;
    // Backpressure: while the zip and the reader have not taken what was written, no more rows are read.
    if (++count % 200 === 0) {
      const input = zipInput(sheet);
      if (input) await drained(input, stream);
      await drained(stream, stream);
    }
    const line = sheet.addRow(columns.map((c) => xlsxValue(c.value(row))));
    for (let i = 1; i <= columns.length; i++) {
      const cell = line.getCell(i);
      // Text cells are formatted as text: editing one in Excel keeps it text, never a formula.
      if (cell.value instanceof Date) cell.numFmt = 'yyyy-mm-dd hh:mm:ss';
      else if (typeof cell.value === 'string') cell.numFmt = '@';
    }
    line.commit();
  }
  sheet.commit();
  await workbook.commit();
}

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface ExportFile<R> {
  format: ExportFormat;
  /** Without the extension. */
  filename: string;
  /** The XLSX sheet's name. */
  sheet?: string;
  columns: readonly ExportColumn<R>[];
  rows: Rows<R>;
  /** The row count when known, sent as X-Total-Count (the client shows a percentage). */
  total?: number;
}

/** How an export ended: the rows written into the file, and whether the client went away first. */
export interface ExportOutcome {
  rows: number;
  cancelled: boolean;
}

const outcomes = new WeakMap<FastifyReply, Promise<ExportOutcome>>();

/**
 * The export a reply carries, settled when the response has ended (sent in full, or cut because the client
 * went away): what the audit trail records (http/endpoints.ts). Undefined for a reply that is no export.
 */
export const exportOutcome = (reply: FastifyReply): Promise<ExportOutcome> | undefined => outcomes.get(reply);

/** The rows as they are read, counted. */
async function* counted<R>(rows: Rows<R>, count: { n: number }): AsyncGenerator<R> {
  for await (const row of rows) {
    count.n++;
    yield row;
  }
}

/**
 * Sends a list as a download (a raw endpoint's answer): CSV or XLSX, `Content-Disposition: attachment`,
 * never cached. The file is streamed; the returned promise settles when it has been written. The rows
 * written are counted, and `exportOutcome(reply)` settles once the response ended.
 */
export async function sendExport<R>(reply: FastifyReply, source: ExportFile<R>): Promise<FastifyReply> {
  const count = { n: 0 };
  const file: ExportFile<R> = Object.assign({}, source, { rows: counted(source.rows, count) });
  outcomes.set(
    reply,
    new Promise<ExportOutcome>((resolve) => {
      // Sent in full: 'finish'. Cut (the client went away): 'close' without it. The first settles it.
      const raw = reply.raw;
      if (raw.writableFinished) return resolve({ rows: count.n, cancelled: false });
      raw.once('finish', () => resolve({ rows: count.n, cancelled: false }));
      raw.once('close', () => resolve({ rows: count.n, cancelled: !raw.writableFinished }));
    }),
  );
  reply
    .type(TYPES[file.format])
    .header('content-disposition', contentDisposition(`${file.filename}.${file.format}`))
    .header('cache-control', 'no-store');
  if (file.total != null) reply.header('x-total-count', String(file.total));
  if (file.format === 'csv') {
    const body = Readable.from(csvLines(file.columns, file.rows), { objectMode: false });
    // A client that goes away ends the generator (and with it the reading) at once.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) body.destroy();
    });
    return reply.send(body);
  }
  const stream = new PassThrough();
  let gone = false;
  reply.raw.once('close', () => {
    gone = !reply.raw.writableFinished;
    if (gone) stream.destroy();
  });
  const written = writeXlsx(stream, file.sheet ?? file.filename, file.columns, file.rows, () => gone);
  reply.send(stream);
  try {
    await written;
  } catch (error) {
    // Headers are gone already: cut the download rather than end it looking complete.
    stream.destroy(error as Error);
    throw error;
  }
  return reply;
}

export interface ListExport<R extends { id: number }> {
  format: ExportFormat;
  filename: string;
  sheet?: string;
  columns: readonly ExportColumn<R>[];
  /** The list's filters (the same conditions its list query uses). */
  where: SQL | undefined;
  /** The list's order (its sort key); the export walks it by keyset. */
  key: SortKey;
  /** The list's row query: the rows of `where` in `order`, at most `limit`. */
  fetch: (where: SQL | undefined, order: SQL[], limit: number) => Promise<R[]>;
  /** The list's FROM/WHERE for counting: when given and under the list's count cap, the total is sent. */
  count?: SQL;
}

/**
 * A list's export: its filtered rows in its order, read from the database in batches by keyset and
 * streamed as CSV or XLSX, at most EXPORT_MAX_ROWS. The file name gets today's UTC date.
 */
export async function exportList<R extends { id: number }>(db: Tx, reply: FastifyReply, list: ListExport<R>): Promise<FastifyReply> {
  const counted = list.count ? await cappedCount(db, list.count) : null;
  const day = new Date().toISOString().slice(0, 10);
  return sendExport(reply, {
    format: list.format,
    filename: `${list.filename}-${day}`,
    sheet: list.sheet,
    columns: list.columns,
    rows: keysetRows(list.fetch, list.where, list.key, { max: EXPORT_MAX_ROWS }),
    total: counted && !counted.capped ? counted.total : undefined,
  });
}
