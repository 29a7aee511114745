import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvField, csvLines, type ExportColumn, type ExportOutcome, exportOutcome, neutralise, sendExport, writeXlsx } from './export';

const DANGEROUS = ['=1+1', '+1', '-2', '@SUM(A1:A2)', '\t=cmd', '\r=cmd', '\0=x', '=HYPERLINK("http://x","y")'];

describe('neutralise', () => {
  it('prefixes an apostrophe to text a spreadsheet would read as a formula', () => {
    for (const text of DANGEROUS) expect(neutralise(text), JSON.stringify(text)).toBe(`'${text}`);
  });
  it('leaves other text alone', () => {
    for (const text of ['ABCD-EFGH-JKMN-PQRS', 'a=b', ' =x', '', '西湖诊所', "'quoted"]) expect(neutralise(text)).toBe(text);
  });
});

describe('CSV', () => {
  it('quotes fields with quotes, commas, line breaks and edge spaces (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });
  it('neutralises text but writes numbers as numbers (a negative amount stays a number)', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField(-1000)).toBe('-1000');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(Number.NaN)).toBe('');
    // A tab or CR start is neutralised, then quoted when it needs to be.
    expect(csvField('\r=x')).toBe('"\'\r=x"');
  });
  it('writes dates as UTC ISO text', () => {
    expect(csvField(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05Z');
  });
  it('starts with a UTF-8 BOM, puts the titles first and ends lines with CRLF', async () => {
    const columns: ExportColumn<{ a: string; n: number }>[] = [
      { title: '激活码', value: (r) => r.a },
      { title: '=title', value: (r) => r.n },
    ];
    let text = '';
    for await (const chunk of csvLines(columns, [
      { a: '@x', n: -3 },
      { a: '西湖', n: 4 },
    ]))
      text += chunk;
    expect(Buffer.from(text, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(text.slice(1)).toBe("激活码,'=title\r\n'@x,-3\r\n西湖,4\r\n");
  });
});

describe('XLSX', () => {
  it('writes a workbook whose text cells are neutralised and whose numbers and dates keep their type', async () => {
    const rows = DANGEROUS.map((text, i) => ({ text, n: -1 - i, at: new Date(Date.UTC(2026, 0, 1 + i)) }));
    const columns: ExportColumn<(typeof rows)[number]>[] = [
      { title: 'Text', value: (r) => r.text },
      { title: 'Number', value: (r) => r.n },
      { title: 'Date', value: (r) => r.at },
    ];
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((resolve) => stream.on('end', resolve));
    await writeXlsx(stream, 'Codes: [batch]/1', columns, rows);
    await ended;
    const file = Buffer.concat(chunks);
    expect(file.subarray(0, 2).toString()).toBe('PK');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).not.toMatch(/[[\]:*?/\\]/);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Text', 'Number', 'Date']);
    rows.forEach((r, i) => {
      const row = sheet.getRow(i + 2);
      // XML keeps no CR (it reads back as LF) and no NUL (ExcelJS drops it): the apostrophe stays first.
      expect(row.getCell(1).value).toBe(`'${r.text}`.replace(/\r/g, '\n').replace(/\0/g, ''));
      expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
      expect(row.getCell(2).value).toBe(r.n);
      expect(row.getCell(3).value).toEqual(r.at);
    });
  });
});

describe('the outcome an export reports to the audit trail', () => {
  /** A Fastify app on a real port whose one route exports `rows` (an endless list stays endless). */
  async function serve(rows: () => AsyncIterable<{ n: number }> | Iterable<{ n: number }>, format: 'csv' | 'xlsx') {
    const { default: Fastify } = await import('fastify');
    // Closing ends the connections the aborted downloads leave behind.
    const app = Fastify({ forceCloseConnections: true });
    const outcomes: Promise<ExportOutcome>[] = [];
    app.get('/file', async (_req, reply) => {
      const sent = sendExport(reply, { format, filename: 'rows', columns: [{ title: 'n', value: (r: { n: number }) => r.n }], rows: rows() });
      outcomes.push(exportOutcome(reply)!);
      return sent;
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url, outcomes };
  }

  it('sent in full: the rows written, not cancelled', async () => {
    const { app, url, outcomes } = await serve(() => Array.from({ length: 1234 }, (_, n) => ({ n })), 'csv');
    try {
      const text = await (await fetch(`${url}/file`)).text();
      expect(text.split('\r\n').filter(Boolean)).toHaveLength(1235);
      expect(await outcomes[0]).toEqual({ rows: 1234, cancelled: false });
    } finally {
      await app.close();
    }
  });

  it('cut by the client: cancelled, with the rows written until then', async () => {
    async function* endless() {
      for (let n = 0; ; n++) yield { n };
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const { app, url, outcomes } = await serve(endless, format);
      try {
        const gone = new AbortController();
        const res = await fetch(`${url}/file`, { signal: gone.signal });
        const reader = res.body!.getReader();
        await reader.read();
        gone.abort();
        await expect.poll(() => outcomes.length).toBe(1);
        const outcome = await outcomes[0]!;
        expect(outcome.cancelled, format).toBe(true);
        expect(outcome.rows, format).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    }
  });
});
