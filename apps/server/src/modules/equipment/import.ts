import { excel } from '../../lib/excel';
import { DEVICE_LIMITS, type EquipmentImportBody, formatMessage, type Lang, type MessageKey, normalizeSerial, SERIAL_RE, SERIAL_TITLES } from '@app/contract';
import { badRequest } from '../../lib/errors';

/*
 * Reading a batch of devices from a CSV (UTF-8, optional BOM, RFC 4180 quoting, comma or semicolon) or
 * an XLSX (first sheet) file: columns serial, model, name, remark. Rows are numbered as a spreadsheet
 * numbers them (the title row, when present, is row 1); blank rows are skipped.
 */

export interface ImportRow {
  row: number;
  serial: string;
  model: string;
  name: string;
  remark: string;
}

export interface ParsedFile {
  rows: ImportRow[];
  /** Bad rows: row number -> the reason, in the caller's language. */
  bad: Map<number, string>;
  reject(row: number, key: MessageKey, params?: Record<string, string | number>): void;
}

/** RFC 4180 CSV: quoted fields with doubled quotes and line breaks; `,` or `;` as the separator (the first line's). */
export function parseCsv(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const sep = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

async function parseXlsx(buffer: Buffer): Promise<string[][]> {
  const ExcelJS = await excel();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  // Row numbers as the sheet has them: empty rows in between stay empty.
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= 4; c++) cells.push(row.getCell(c).text ?? '');
    rows.push(cells);
  }
  return rows;
}

const TITLES = new Set<string>(SERIAL_TITLES.map((s) => s.toLowerCase()));

/** Reads the file and checks every row on its own (repeats within the file included); stored serials are checked by the caller. */
export async function parseDeviceFile(body: EquipmentImportBody, lang: Lang): Promise<ParsedFile> {
  const buffer = Buffer.from(body.file, 'base64');
  let table: string[][];
  try {
    table = body.format === 'csv' ? parseCsv(buffer.toString('utf8')) : await parseXlsx(buffer);
  } catch {
    throw badRequest('deviceImportUnreadable');
  }
  const bad = new Map<number, string>();
  const reject: ParsedFile['reject'] = (row, key, params) => {
    if (!bad.has(row)) bad.set(row, formatMessage(key, lang, params));
  };
  const first = (table[0]?.[0] ?? '').trim().toLowerCase();
  const start = TITLES.has(first) ? 1 : 0;
  const data = table
    .map((cells, i) => ({ row: i + 1, cells: cells.map((c) => c.trim()) }))
    .slice(start)
    .filter((r) => r.cells.some((c) => c !== ''));
  if (!data.length) throw badRequest('deviceImportEmpty');
  if (data.length > DEVICE_LIMITS.importMaxRows) throw badRequest('deviceImportTooMany', { max: DEVICE_LIMITS.importMaxRows });

  const seen = new Map<string, number>();
  const rows: ImportRow[] = [];
  for (const { row, cells } of data) {
    const [rawSerial = '', rawModel = '', rawName = '', rawRemark = ''] = cells;
    const serial = normalizeSerial(rawSerial);
    const model = rawModel || body.model;
    const name = rawName || serial;
    const remark = rawRemark || body.remark;
    if (!serial) reject(row, 'deviceSerialMissing');
    else if (!SERIAL_RE.test(serial)) reject(row, 'deviceSerialFormat');
    else if (seen.has(serial)) reject(row, 'deviceSerialRepeated', { serial, row: seen.get(serial)! });
    if (!model) reject(row, 'deviceModelMissing');
    else if (model.length > DEVICE_LIMITS.modelLength) reject(row, 'deviceFieldTooLong', { field: 'model', max: DEVICE_LIMITS.modelLength });
    if (name.length > DEVICE_LIMITS.nameLength) reject(row, 'deviceFieldTooLong', { field: 'name', max: DEVICE_LIMITS.nameLength });
    if (remark.length > DEVICE_LIMITS.remarkLength) reject(row, 'deviceFieldTooLong', { field: 'remark', max: DEVICE_LIMITS.remarkLength });
    if (serial && !seen.has(serial)) seen.set(serial, row);
    rows.push({ row, serial, model, name, remark });
  }
  return { rows, bad, reject };
}
