/**
 * Uploads (spec §7 "base/upload_img, base/upload_file"): multipart/form-data with the file in field
 * `file`; open to the pages that upload (the acupoint and schematic editors' pictures). The body is
 * multipart, so the session key travels in the query string (`?key=...`, as for GET calls) or in an
 * `Authorization: Bearer` header, not as a form field. Files are read back publicly by their random
 * names. The endpoint table is `uploadsApi` at the end of this file.
 */
import { z } from 'zod';
import { answer, defineEndpoints, get, noInput, post } from '../endpoint';

export const UPLOAD_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const UPLOAD_FILE_TYPES = [
  ...UPLOAD_IMAGE_TYPES,
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/csv',
  'text/plain',
] as const;
export type UploadType = (typeof UPLOAD_FILE_TYPES)[number];

export interface UploadAnswer {
  /** Where to read it back: `${API_BASE}/uploads/<name>`; store this URL in records. */
  url: string;
  /** The stored name: random, 128 bits, with the extension of the detected type. */
  name: string;
  /** The client's file name, cleaned, for display only. */
  original_name: string;
  size: number;
  /** Detected from the content (magic bytes), never from the client's name or header. */
  type: UploadType;
  width?: number;
  height?: number;
}

/** GET /uploads/:name: any name is looked up (an unknown one answers 404). */
export const uploadNameInput = z.object({ name: z.string() });

/**
 * Who may upload: the pages whose forms upload (acupoint and schematic pictures). No institution page and
 * no read-only role needs to store files; a page that starts uploading is added here.
 */
const UPLOADING_PAGES = { page: ['AcupointManage', 'SchematicManage'] } as const;

export const uploadsApi = defineEndpoints('uploads', {
  /** An image (png, jpg, gif, webp; at most 5 MB), multipart field `file`. */
  uploadImg: post('/base/upload_img', UPLOADING_PAGES, noInput, answer<UploadAnswer>(), { body: 'multipart', summary: 'Upload an image (multipart, field `file`)' }),
  /** A file of an allowed type (images, pdf, zip, xlsx, docx, csv, txt; at most 20 MB), multipart field `file`. */
  uploadFile: post('/base/upload_file', UPLOADING_PAGES, noInput, answer<UploadAnswer>(), { body: 'multipart', summary: 'Upload a file (multipart, field `file`)' }),
  /** Public read: names are random (128 bits). The stored type is served, never sniffed by the browser. */
  file: get('/uploads/:name', { public: true }, uploadNameInput, answer<unknown>(), { raw: true, summary: 'An uploaded file, by its name' }),
});
