import multipart from '@fastify/multipart';
import { UPLOAD_FILE_MAX_BYTES, uploadsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/**
 * Uploads (spec §7 "base/upload_img, base/upload_file"): multipart/form-data with the file in field
 * `file`; open to the pages that upload (the contract's `uploadsApi` says which). The key travels in
 * the query string or an Authorization header. Multipart parsing is registered in this module's scope only, with
 * limits. Uploads change no record: their audit rows have no before/after.
 */
export default defineRoutes(uploadsApi, service, {
  setup: async (app) => {
    await app.register(multipart, {
      // Keep the client's name as sent, so a name with a path is refused rather than silently cut.
      preservePath: true,
      limits: { fileSize: UPLOAD_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
    });
  },
});
