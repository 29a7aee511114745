import { uploadsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { registerMultipart } from './multipart';
import * as service from './service';

/**
 * Uploads (spec §7 "base/upload_img, base/upload_file"): multipart/form-data with the file in field
 * `file`; open to the pages that upload (the contract's `uploadsApi` says which). The key travels in
 * the query string or an Authorization header. Multipart parsing is registered in this module's scope only, with
 * limits. Uploads change no record: their audit rows have no before/after.
 */
export default defineRoutes(uploadsApi, service, {
  setup: registerMultipart,
});
