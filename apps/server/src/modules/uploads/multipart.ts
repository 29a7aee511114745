import multipart from '@fastify/multipart';
import { UPLOAD_FILE_MAX_BYTES } from '@app/contract';
import type { FastifyInstance } from 'fastify';

/** Multipart parsing with the uploads' limits, in the calling module's scope only (uploads, payout vouchers). */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    // Keep the client's name as sent, so a name with a path is refused rather than silently cut.
    preservePath: true,
    limits: { fileSize: UPLOAD_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
  });
}
