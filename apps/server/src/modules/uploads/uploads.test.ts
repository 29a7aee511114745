import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse as parseDisposition } from 'content-disposition';
import { adminUsers, auditLog, uploads } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { solidPng } from '../schematics';
import { cleanName, sniff } from './service';

let t: TestApp;
let admin: string;
let dataDir: string;

interface Part {
  field?: string;
  filename?: string;
  type?: string;
  content: Buffer | string;
}

/** A multipart/form-data request body. */
function form(parts: Part[]) {
  const boundary = `----vitest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.field ?? 'file'}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n${p.type ? `content-type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(kind: 'img' | 'file', parts: Part[], key: string | null = admin, lang = 'en') {
  const { payload, headers } = form(parts);
  const res = await t.app.inject({ method: 'POST', url: `/adminapi/base/upload_${kind}${key ? `?key=${key}` : ''}`, payload, headers: { ...headers, 'accept-language': lang } });
  return { status: res.statusCode, ...(res.json() as { code: number; datas: any }), raw: res.body };
}

/** The names stored in the `uploads` table. */
const storedFiles = async () => (await t.db.select({ name: uploads.name }).from(uploads)).map((r) => r.name);

/** A ZIP with the given (empty, stored) entries: enough for the type check. */
function zip(names: string[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const n = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n);
    centrals.push(central, n);
    offset += 30 + n.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

beforeAll(async () => {
  t = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'));
  // An empty folder of its own: the last test checks that no upload wrote anything under it.
  t.app.config.dataDir = dataDir;
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('uploads', () => {
  it('accepts a real PNG, stores it under a random name and serves it back as image/png', async () => {
    const png = solidPng(64, 48);
    const res = await upload('img', [{ filename: 'Body chart.PNG', type: 'application/octet-stream', content: png }]);
    expect(res.code, res.raw).toBe(200);
    expect(res.datas).toMatchObject({ type: 'image/png', width: 64, height: 48, size: png.length, original_name: 'Body chart.PNG' });
    expect(res.datas.name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(res.datas.url).toBe(`/adminapi/uploads/${res.datas.name}`);
    expect(await storedFiles()).toContain(res.datas.name);
    // One row in the table: the bytes, their length and SHA-256, the detected type, who uploaded it.
    const [row] = await t.db.select().from(uploads).where(eq(uploads.name, res.datas.name));
    const adminId = (await t.db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, 'admin')))[0]!.id;
    expect(row).toMatchObject({ contentType: 'image/png', size: png.length, sha256: createHash('sha256').update(png).digest('hex'), uploaderKind: 'admin', uploaderId: adminId });
    expect(row!.content.equals(png)).toBe(true);

    const got = await t.app.inject({ method: 'GET', url: res.datas.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(png)).toBe(true);
    // The same headers as when files were served from DATA_DIR/uploads: cached for a year (the name never
    // changes its bytes), the exact length, no ETag (there was none), not compressed (an image).
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(got.headers['content-length']).toBe(String(png.length));
    expect(got.headers.etag).toBeUndefined();
    const head = await t.app.inject({ method: 'HEAD', url: res.datas.url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(png.length));
    expect(head.headers['content-encoding']).toBeUndefined();
    // public read: names are random
    expect(parseDisposition(String(got.headers['content-disposition']))).toEqual({ type: 'inline', parameters: { filename: res.datas.name } });
    expect(got.headers['content-security-policy']).toMatch(/^default-src 'none'; sandbox(;|$)/);
  });

  it('refuses an HTML file posing as an image, on both endpoints', async () => {
    const html = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
    const before = (await storedFiles()).length;
    const img = await upload('img', [{ filename: 'photo.png', type: 'image/png', content: html }]);
    expect(img.code).toBe(400);
    expect(img.datas.error).toBe('The file content is not an image (PNG, JPEG, GIF or WebP only)');
    const file = await upload('file', [{ filename: 'photo.png', type: 'image/png', content: html }]);
    expect(file.code).toBe(400);
    expect(file.datas.error).toMatch(/File type not allowed/);
    const svg = await upload('file', [{ filename: 'x.txt', type: 'text/plain', content: '\uFEFF  <svg onload="alert(1)"/>' }]);
    expect(svg.code).toBe(400);
    expect((await storedFiles()).length).toBe(before);
    const zh = await upload('img', [{ filename: 'photo.png', content: html }], admin, 'zh-CN');
    expect(zh.datas.error).toBe('文件内容不是图片（仅支持 PNG、JPEG、GIF、WebP）');
  });

  it('refuses files over the caps with a clear message', async () => {
    const big = Buffer.concat([solidPng(2, 2), Buffer.alloc(5 * 1024 * 1024)]);
    const img = await upload('img', [{ filename: 'big.png', content: big }]);
    expect(img.status).toBe(200);
    expect(img.code).toBe(400);
    expect(img.datas.error).toBe('The file is larger than the 5 MB limit');
    // the same file is fine as a file (20 MB cap) ...
    const asFile = await upload('file', [{ filename: 'big.png', content: big }]);
    expect(asFile.code, asFile.raw).toBe(200);
    // 5 MB through the table and back, byte for byte
    const back = await t.app.inject({ method: 'GET', url: asFile.datas.url });
    expect(back.headers['content-length']).toBe(String(big.length));
    expect(back.rawPayload.equals(big)).toBe(true);
    // ... and one over 20 MB is not
    const huge = await upload('file', [{ filename: 'huge.pdf', content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024)]) }]);
    expect(huge.code).toBe(400);
    expect(huge.datas.error).toBe('The file is larger than the 20 MB limit');
  });

  it('never uses the client name for the path: a name with a path is refused, nothing is written outside', async () => {
    const before = await storedFiles();
    for (const filename of ['../../x', '../../x.png', '..\\..\\x.png', '/etc/passwd', 'a\u0001b.png']) {
      const res = await upload('img', [{ filename, content: solidPng(4, 4) }]);
      expect(res.code, filename).toBe(400);
      expect(res.datas.error).toBe('Invalid file name: it cannot contain a path or control characters');
    }
    expect(await storedFiles()).toEqual(before);
    expect(fs.existsSync(path.join(dataDir, 'x'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'x.png'))).toBe(false);
    // reading back: only stored names, nothing else reachable
    for (const url of [
      '/adminapi/uploads/..%2F..%2Fetc%2Fpasswd',
      '/adminapi/uploads/../../package.json',
      '/adminapi/uploads/%2e%2e%2fconfig.ts',
      `/adminapi/uploads/${'0'.repeat(32)}.png`,
      `/adminapi/uploads/${'0'.repeat(32)}.pdf`,
      `/adminapi/uploads/${'A'.repeat(32)}.png`,
      '/adminapi/uploads/builtin-nope.png',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toMatch(/root:|"name"|at .*\.ts/);
    }
  });

  it('accepts documents by content and serves them with their type', async () => {
    const pdf = await upload('file', [{ filename: 'voucher.pdf', content: '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF' }]);
    expect(pdf.datas).toMatchObject({ type: 'application/pdf' });
    expect(pdf.datas.name).toMatch(/\.pdf$/);
    expect(pdf.datas.width).toBeUndefined();
    const csvBytes = Buffer.from('date,amount\n2025-01-01,12.50\n');
    const csv = await upload('file', [{ filename: '账单.csv', content: csvBytes }]);
    expect(csv.datas).toMatchObject({ type: 'text/csv', original_name: '账单.csv' });
    const txt = await upload('file', [{ filename: 'notes', content: 'plain text, UTF-8: 你好' }]);
    expect(txt.datas.type).toBe('text/plain');
    const xlsx = await upload('file', [{ filename: 'report.xlsx', content: zip(['[Content_Types].xml', 'xl/workbook.xml']) }]);
    expect(xlsx.datas.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const docx = await upload('file', [{ filename: 'letter.docx', content: zip(['[Content_Types].xml', 'word/document.xml']) }]);
    expect(docx.datas.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const plainZip = await upload('file', [{ filename: 'a.zip', content: zip(['a.txt']) }]);
    expect(plainZip.datas.type).toBe('application/zip');

    const got = await t.app.inject({ method: 'GET', url: csv.datas.url });
    expect(got.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toMatch(/^attachment/);
    expect(got.rawPayload.equals(csvBytes)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: pdf.datas.url })).headers['content-type']).toBe('application/pdf');

    // Only images are shown inline; every other file is a download, sandboxed should a browser open it.
    for (const up of [pdf, csv, txt, xlsx, docx, plainZip]) {
      const res = await t.app.inject({ method: 'GET', url: up.datas.url });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length, up.datas.type).toBe(up.datas.size);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(parseDisposition(String(res.headers['content-disposition'])), up.datas.type).toEqual({ type: 'attachment', parameters: { filename: up.datas.name } });
      expect(res.headers['content-security-policy'], up.datas.type).toMatch(/^default-src 'none'; sandbox(;|$)/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }

    // not allowed: binary that is none of the types, invalid UTF-8, an image endpoint given a PDF
    expect((await upload('file', [{ filename: 'a.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]) }])).code).toBe(400);
    expect((await upload('file', [{ filename: 'a.txt', content: Buffer.from([0x61, 0xff, 0xfe, 0x62]) }])).code).toBe(400);
    expect((await upload('img', [{ filename: 'a.png', content: '%PDF-1.4\n' }])).datas.error).toMatch(/not an image/);
  });

  it('answers malformed requests with a 400, never a stack trace', async () => {
    expect((await upload('img', [])).datas.error).toBe('Choose a file to upload (form field "file")');
    expect((await upload('img', [{ field: 'image', filename: 'a.png', content: solidPng(2, 2) }])).datas.error).toMatch(/form field "file"/);
    expect((await upload('img', [{ field: 'file', content: 'not a file part' }])).code).toBe(400);
    expect((await upload('img', [{ filename: 'empty.png', content: Buffer.alloc(0) }])).datas.error).toBe('The file is empty');
    expect((await upload('img', [{ filename: 'cut.png', content: solidPng(2, 2).subarray(0, 20) }])).datas.error).toMatch(/damaged/);
    const json = await t.call('POST', '/base/upload_img', { key: admin, body: { file: 'x' } });
    expect(json.code).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: `/adminapi/base/upload_img?key=${admin}`,
      payload: '--abc\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\nxx',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
    });
    expect(broken.statusCode).toBeLessThan(500);
    expect(broken.body).not.toMatch(/at .*\.(ts|js)|node_modules/);
    const noBoundary = await t.app.inject({ method: 'POST', url: `/adminapi/base/upload_img?key=${admin}`, payload: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.statusCode).toBeLessThan(500);
  });

  it('only the pages that upload may: not institutions nor a role without those pages', async () => {
    expect((await upload('img', [{ filename: 'a.png', content: solidPng(2, 2) }], null)).code).toBe(999);
    const clinic = (await t.login('clinic3', 'institution')).key;
    const refused = await upload('img', [{ filename: 'a.png', content: solidPng(2, 2) }], clinic);
    expect(refused.datas.error, refused.raw).toMatch(/permission/);
    const agent = (await t.login('agent1', 'institution')).key;
    expect((await upload('file', [{ filename: 'a.csv', content: 'a,b' }], agent)).datas.error).toMatch(/permission/);
    const overdue = (await t.login('overdue3', 'institution')).key;
    expect((await upload('img', [{ filename: 'a.png', content: solidPng(2, 2) }], overdue)).code).toBe(998);
    const auditor = (await t.login('auditor')).key;
    expect((await upload('img', [{ filename: 'a.png', content: solidPng(2, 2) }], auditor)).datas.error).toMatch(/permission/);
    // either page will do
    for (const page of ['AcupointManage', 'SchematicManage']) {
      const editor = await t.adminWith(`uploader-${page}`, [page]);
      const res = await upload('img', [{ filename: 'a.png', content: solidPng(2, 2) }], editor);
      expect(res.code, res.raw).toBe(200);
      expect((await upload('file', [{ filename: 'a.csv', content: 'a,b' }], editor)).code).toBe(200);
    }
    // the bearer header works too
    const { payload, headers } = form([{ filename: 'a.png', content: solidPng(2, 2) }]);
    const bearer = await t.app.inject({ method: 'POST', url: '/adminapi/base/upload_img', payload, headers: { ...headers, authorization: `Bearer ${admin}` } });
    expect(bearer.json().code).toBe(200);
  });
});

describe('content sniffing', () => {
  it('reads image sizes from the header bytes', () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x20, 0x01, 0x10, 0x00]), Buffer.alloc(10)]);
    expect(sniff(gif, 'a.gif')).toMatchObject({ type: 'image/gif', width: 288, height: 16 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0x01, 0x22,
      0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ]);
    expect(sniff(jpeg, 'a.jpg')).toMatchObject({ type: 'image/jpeg', width: 640, height: 480 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0);
    vp8x.write('WEBP', 8);
    vp8x.write('VP8X', 12);
    vp8x.writeUIntLE(799, 24, 3);
    vp8x.writeUIntLE(599, 27, 3);
    expect(sniff(vp8x, 'a.webp')).toMatchObject({ type: 'image/webp', width: 800, height: 600 });
    expect(sniff(solidPng(7, 3), '')).toMatchObject({ type: 'image/png', width: 7, height: 3 });
  });

  it('cleans display names and refuses paths', () => {
    expect(cleanName('  report.pdf ')).toBe('report.pdf');
    expect(cleanName('my..file.png')).toBe('my..file.png');
    expect(() => cleanName('..')).toThrow();
    expect(() => cleanName('a/b')).toThrow();
  });

  it('sanitises the original name before echoing it: no direction overrides, invisible or control characters, whole characters only', async () => {
    // U+202E would show "photo<U+202E>gnp.exe" as "photoexe.png"; zero-width and format characters hide text
    expect(cleanName('invoice\u202Eanp.exe')).toBe('invoiceanp.exe');
    expect(cleanName('a\u200Bb\u2066c\uFEFF.png')).toBe('abc.png');
    expect(cleanName('two   spaces\u00A0and\u3000more.png')).toBe('two spaces and more.png');
    // C1 controls and line separators are refused like C0 ones
    for (const bad of ['a\u0085b.png', 'a\u009Bb.png', 'a\u2028b.png', 'a\u2029b.png']) expect(() => cleanName(bad), JSON.stringify(bad)).toThrow();
    // cut at 200 characters, never inside one
    const long = cleanName(`a${'😀'.repeat(300)}.png`);
    expect(Buffer.from(long).toString()).toBe(long); // no lone surrogate
    expect([...long].length).toBe(200);
    // nothing left: the stored name stands in
    const res = await upload('img', [{ filename: '\u202E\u200B', content: solidPng(2, 2) }]);
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.original_name).toBe(res.datas.name);
    const bidi = await upload('img', [{ filename: 'photo\u202Egnp.exe', content: solidPng(2, 2) }]);
    expect(bidi.datas.original_name).toBe('photognp.exe');
  });

  it('audits an upload without a record: no before/after, no session key', async () => {
    const res = await upload('img', [{ filename: 'audited.png', type: 'image/png', content: solidPng(3, 2) }]);
    expect(res.code, res.raw).toBe(200);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'uploads.uploadImg'));
    expect(rows.length).toBeGreaterThan(0);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ path: '/base/upload_img', recordType: null, recordId: null, before: null, after: null, actorKind: 'admin', actorName: 'admin' });
    expect(JSON.stringify(row)).not.toContain(admin);
  });
});

describe('DATA_DIR', () => {
  // Runs last: every upload above (images, files, refusals) went to the database, none to the disk.
  it('no upload writes anything under DATA_DIR (there is no DATA_DIR/uploads any more)', async () => {
    expect((await storedFiles()).length).toBeGreaterThan(10);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
