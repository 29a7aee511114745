import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import { API_BASE, UPLOAD_FILE_MAX_BYTES, UPLOAD_IMAGE_MAX_BYTES, type ParsedInputOf, type UploadAnswer, type UploadType, type uploadsApi } from '@app/contract';
import type { Tx } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { AppError, badRequest } from '../../lib/errors';
import { readParam } from '../../lib/params';
import { releaseUploadSlot, takeUploadSlot, type UploadActor } from '../../lib/quota';
import { builtinImage } from '../schematics';

/*
 * Uploads: the real type comes from the content (magic bytes), never from the client's name or
 * Content-Type; files are stored under random names in the `uploads` table and read back by name
 * (issue 34: nothing is written to `DATA_DIR/uploads` any more; a folder left from before is moved into
 * the table once at start, `move-in.ts`).
 */

export const MAX_IMAGE_SIDE = 20_000;

export interface Sniffed {
  type: UploadType;
  ext: string;
  image: boolean;
  width?: number;
  height?: number;
}

const IMAGE_EXTS: Record<string, UploadType> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
export const FILE_EXTS: Record<string, UploadType> = {
  ...IMAGE_EXTS,
  // biome-ignore lint/plugin/no-property-after-spread: a constant, built once
  pdf: 'application/pdf',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  csv: 'text/csv',
  txt: 'text/plain',
};

const startsWith = (buf: Buffer, bytes: number[] | string, at = 0) => {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return buf.length >= at + sig.length && buf.subarray(at, at + sig.length).equals(sig);
};

/** Width and height of a JPEG from its first SOF marker. */
function jpegSize(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    let marker = buf[i + 1]!;
    while (marker === 0xff && i + 2 < buf.length) marker = buf[++i + 1]!; // fill bytes
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    const len = buf.readUInt16BE(i + 2);
    if (len < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return null;
}

function webpSize(buf: Buffer): { width: number; height: number } | null {
  if (buf.length < 30) return null;
  const chunk = buf.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && buf[23] === 0x9d && buf[24] === 0x01 && buf[25] === 0x2a) {
    return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && buf[20] === 0x2f) {
    const b = buf.subarray(21, 25);
    return { width: 1 + (b[0]! | ((b[1]! & 0x3f) << 8)), height: 1 + ((b[1]! >> 6) | (b[2]! << 2) | ((b[3]! & 0x0f) << 10)) };
  }
  if (chunk === 'VP8X') return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
  return null;
}

/** Entry names of a ZIP's central directory (empty when it cannot be read). */
function zipNames(buf: Buffer): string[] {
  const from = Math.max(0, buf.length - 65_557);
  for (let i = buf.length - 22; i >= from; i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const entries = buf.readUInt16LE(i + 10);
    let p = buf.readUInt32LE(i + 16);
    const names: string[] = [];
    for (let n = 0; n < entries && p + 46 <= buf.length && buf.readUInt32LE(p) === 0x02014b50; n++) {
      const nameLen = buf.readUInt16LE(p + 28);
      const skip = nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
      names.push(buf.toString('utf8', p + 46, Math.min(buf.length, p + 46 + nameLen)));
      p += 46 + skip;
    }
    return names;
  }
  return [];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Markup a browser could render as a page: refused even as plain text. */
const MARKUP_RE = /^\s*<(?:!doctype|html|head|body|script|svg|\?xml|iframe|object|embed|meta|a\s|div|img|style|link)/i;

/** The type of a file by its content, or null when it is none of the allowed types. */
export function sniff(buf: Buffer, clientName: string): Sniffed | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    if (buf.length < 24 || !startsWith(buf, 'IHDR', 12)) return { type: 'image/png', ext: 'png', image: true };
    return { type: 'image/png', ext: 'png', image: true, width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return { type: 'image/jpeg', ext: 'jpg', image: true, ...jpegSize(buf) };
  if (startsWith(buf, 'GIF87a') || startsWith(buf, 'GIF89a')) {
    return { type: 'image/gif', ext: 'gif', image: true, ...(buf.length >= 10 ? { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) } : {}) };
  }
  if (startsWith(buf, 'RIFF') && startsWith(buf, 'WEBP', 8)) return { type: 'image/webp', ext: 'webp', image: true, ...webpSize(buf) };
  if (startsWith(buf, '%PDF-')) return { type: 'application/pdf', ext: 'pdf', image: false };
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04]) || startsWith(buf, [0x50, 0x4b, 0x05, 0x06])) {
    const names = zipNames(buf);
    if (names.includes('xl/workbook.xml')) return { type: FILE_EXTS.xlsx!, ext: 'xlsx', image: false };
    if (names.includes('word/document.xml')) return { type: FILE_EXTS.docx!, ext: 'docx', image: false };
    return { type: 'application/zip', ext: 'zip', image: false };
  }
  // Text: valid UTF-8 without NUL bytes, and not markup.
  if (buf.includes(0)) return null;
  let textContent: string;
  try {
    textContent = utf8.decode(buf);
  } catch {
    return null;
  }
  if (MARKUP_RE.test(textContent.replace(/^\uFEFF/, ''))) return null;
  return /\.csv$/i.test(clientName) ? { type: 'text/csv', ext: 'csv', image: false } : { type: 'text/plain', ext: 'txt', image: false };
}

const NAME_MAX_CHARS = 200;

/**
 * The client's file name, for display only (it is echoed in the upload's answer): refused when it
 * carries a path, control characters (C0, C1) or line separators; invisible format characters (direction
 * overrides such as U+202E, which show "photo\u202Egnp.exe" as "photoexe.png", zero-width characters, BOMs)
 * are dropped, runs of spaces become one, and it is cut at 200 characters, never inside one. An empty
 * result stands for "no name" (the stored name is shown instead).
 */
export function cleanName(name: string | undefined): string {
  const n = (name ?? '').normalize('NFC');
  if (/[/\\\p{Cc}\u2028\u2029]/u.test(n) || n === '.' || n === '..') throw badRequest('uploadBadName');
  const visible = n
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return [...visible].slice(0, NAME_MAX_CHARS).join('').trim();
}

/** Checks the content against the endpoint's kind; answers what to store. */
export function checkContent(buf: Buffer, clientName: string, kind: 'image' | 'file'): Sniffed {
  if (!buf.length) throw badRequest('uploadEmpty');
  const found = sniff(buf, clientName);
  if (kind === 'image' && !found?.image) throw badRequest('uploadNotImage');
  if (!found) throw badRequest('uploadBadType');
  if (found.image) {
    const { width, height } = found;
    if (!width || !height || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw badRequest('uploadBadImage', { max: MAX_IMAGE_SIDE });
  }
  return found;
}

/** The SHA-256 of a content, in hex (the `uploads.sha256` column). */
export const sha256Hex = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

/**
 * Stores the content in the `uploads` table under a new random name (128 bits) with the detected type's
 * extension. One INSERT outside any transaction: it commits before the answer names the file.
 */
export async function store(db: Tx, buf: Buffer, found: Sniffed, originalName: string, uploader: UploadActor): Promise<UploadAnswer> {
  const name = `${randomBytes(16).toString('hex')}.${found.ext}`;
  await db.insert(uploads).values({ name, contentType: found.type, size: buf.length, sha256: sha256Hex(buf), content: buf, uploaderKind: uploader.kind, uploaderId: uploader.id });
  const answer: UploadAnswer = { url: `${API_BASE}/uploads/${name}`, name, original_name: originalName || name, size: buf.length, type: found.type };
  if (found.image) Object.assign(answer, { width: found.width, height: found.height });
  return answer;
}

/** The names uploads are stored under: 32 hex digits and the extension of an allowed type. */
export const STORED_RE = /^[0-9a-f]{32}\.(png|jpg|gif|webp|pdf|zip|xlsx|docx|csv|txt)$/;

export interface Served {
  type: UploadType;
  body: Buffer;
}

/** What GET /uploads/<name> serves: a stored upload or a built-in image; null for anything else. */
export async function locate(db: Tx, name: string): Promise<Served | null> {
  const builtin = builtinImage(name);
  if (builtin) return { type: 'image/png', body: builtin };
  if (!STORED_RE.test(name)) return null;
  const [row] = await db.select({ type: uploads.contentType, body: uploads.content }).from(uploads).where(eq(uploads.name, name));
  return row ? { type: row.type as UploadType, body: row.body } : null;
}

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

const MB = 1024 * 1024;

/** Reads the multipart body's one file (field `file`), checks it against the kind and stores it. */
async function receive(db: Tx, uploader: UploadActor, ctx: Ctx, kind: 'image' | 'file'): Promise<UploadAnswer> {
  const max = kind === 'image' ? UPLOAD_IMAGE_MAX_BYTES : UPLOAD_FILE_MAX_BYTES;
  let buf: Buffer;
  let name: string;
  try {
    const part = await ctx.req.file({ limits: { fileSize: max } });
    if (part?.fieldname !== 'file') {
      part?.file.resume();
      throw badRequest('uploadNoFile');
    }
    name = part.filename;
    buf = await part.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest('uploadTooLarge', { max: max / MB });
    if (e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest('uploadNoFile');
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) throw badRequest('invalidInput', { detail: String(e.message ?? '').slice(0, 200) });
    // Malformed multipart bodies surface as plain busboy errors.
    if (err instanceof Error && /multipart|boundary|unexpected end/i.test(err.message)) throw badRequest('invalidInput', { detail: err.message.slice(0, 200) });
    throw err;
  }
  const originalName = cleanName(name);
  return store(db, buf, checkContent(buf, originalName, kind), originalName, uploader);
}

/**
 * Takes a slot of the caller's daily upload quota (`upload_daily_limit`, per account and UTC day) before
 * anything of the file is read or stored, then receives it; a refused upload gives its slot back.
 */
async function receiveWithinQuota(db: Tx, auth: Auth, ctx: Ctx, kind: 'image' | 'file'): Promise<UploadAnswer> {
  const actor: UploadActor = { kind: auth.kind, id: auth.kind === 'admin' ? auth.admin.id : auth.institution.id };
  const limit = await readParam(db, 'upload_daily_limit');
  const day = await takeUploadSlot(db, actor, limit);
  if (!day) throw badRequest('uploadQuotaReached', { max: limit });
  try {
    return await receive(db, actor, ctx, kind);
  } catch (err) {
    await releaseUploadSlot(db, actor, day);
    throw err;
  }
}

/** The request's multipart image (field `file`), within the caller's daily quota: what every image upload endpoint answers. */
export async function receiveImage(db: Tx, auth: Auth, ctx: Ctx): Promise<UploadAnswer> {
  return receiveWithinQuota(db, auth, ctx, 'image');
}

/** POST /base/upload_img: an image (png, jpg, gif, webp), at most 5 MB. */
export async function uploadImg(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<UploadAnswer> {
  return receiveImage(db, auth, ctx);
}

/** POST /base/upload_file: any allowed type, at most 20 MB. */
export async function uploadFile(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<UploadAnswer> {
  return receiveWithinQuota(db, auth, ctx, 'file');
}

/** GET /uploads/:name (public: names are random, 128 bits). The stored type is served, never sniffed by the browser. */
export async function file(db: Tx, _auth: Auth | null, { name }: ParsedInputOf<typeof uploadsApi.file>, ctx: Ctx): Promise<FastifyReply> {
  const { reply } = ctx;
  const found = await locate(db, name);
  if (!found) {
    reply.callNotFound();
    return reply;
  }
  // Only images are shown in the page; any other file (PDFs too: a browser's PDF viewer runs the
  // document's scripts and forms) is a download, sandboxed should a browser open it anyway.
  reply
    .type(found.type.startsWith('text/') ? `${found.type}; charset=utf-8` : found.type)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('content-disposition', contentDisposition(name, { type: found.type.startsWith('image/') ? 'inline' : 'attachment' }))
    .header('content-security-policy', "default-src 'none'; sandbox; frame-ancestors 'none'");
  return reply.send(found.body);
}
