import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { UPLOAD_FILE_MAX_BYTES, UPLOAD_IMAGE_MAX_BYTES, type UploadAnswer } from '@app/contract';
import { ok } from '../../http/envelope';
import { requireAuth } from '../../http/access';
import { AppError, badRequest } from '../../http/errors';
import { checkContent, cleanName, locate, store } from './service';

const MB = 1024 * 1024;

/**
 * Uploads (spec §7 "base/upload_img, base/upload_file"): multipart/form-data with the file in field
 * `file`; any signed-in caller (admins and institutions of every grade). The key travels in the query
 * string or an Authorization header. Multipart parsing is registered here only, with limits.
 */
export default async function uploadRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    // Keep the client's name as sent, so a name with a path is refused rather than silently cut.
    preservePath: true,
    limits: { fileSize: UPLOAD_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
  });

  async function receive(req: FastifyRequest, kind: 'image' | 'file'): Promise<UploadAnswer> {
    requireAuth(req);
    const max = kind === 'image' ? UPLOAD_IMAGE_MAX_BYTES : UPLOAD_FILE_MAX_BYTES;
    let buf: Buffer;
    let name: string;
    try {
      const part = await req.file({ limits: { fileSize: max } });
      if (!part || part.fieldname !== 'file') {
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
    return store(app.config.dataDir, buf, checkContent(buf, originalName, kind), originalName);
  }

  app.post('/base/upload_img', { config: { access: { session: true } } }, async (req) => ok(await receive(req, 'image')));
  app.post('/base/upload_file', { config: { access: { session: true } } }, async (req) => ok(await receive(req, 'file')));

  /** Public read: names are random (128 bits). The stored type is served, never sniffed by the browser. */
  app.get<{ Params: { name: string } }>('/uploads/:name', { config: { access: 'public' } }, async (req, reply) => {
    const found = await locate(app.config.dataDir, req.params.name);
    if (!found) return reply.callNotFound();
    const inline = found.type.startsWith('image/') || found.type === 'application/pdf';
    reply
      .type(found.type.startsWith('text/') ? `${found.type}; charset=utf-8` : found.type)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${req.params.name}"`);
    if (found.type !== 'application/pdf') reply.header('content-security-policy', "default-src 'none'; sandbox");
    if (found.kind === 'buffer') return reply.send(found.body);
    reply.header('content-length', found.size);
    return reply.send(fs.createReadStream(found.path));
  });
}
