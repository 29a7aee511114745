/**
 * Checks of a picked image before it is uploaded, by content like the server (magic bytes): an HTML
 * page renamed .png is refused in the browser already. Pure; the upload itself is `upload()` of lib/api.
 */
import { UPLOAD_IMAGE_MAX_BYTES } from '@app/contract/api/uploads';

/** What the file picker offers (the content is checked anyway). */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

const starts = (b: Uint8Array, sig: number[] | string, at = 0) => {
  const bytes = typeof sig === 'string' ? Array.from(sig, (c) => c.charCodeAt(0)) : sig;
  if (b.length < at + bytes.length) return false;
  return bytes.every((v, i) => b[at + i] === v);
};

/** The image type from the first bytes, as the server reads it (magic bytes); null for anything else. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts(head, 'GIF87a') || starts(head, 'GIF89a')) return 'gif';
  if (starts(head, 'RIFF') && starts(head, 'WEBP', 8)) return 'webp';
  return null;
}

export type ImageProblem = 'empty' | 'tooLarge' | 'notImage';

/** Checks a picked file before sending it: not empty, at most 5 MB, and really an image by content. */
export async function checkImageFile(file: Blob): Promise<ImageProblem | null> {
  if (file.size === 0) return 'empty';
  if (file.size > UPLOAD_IMAGE_MAX_BYTES) return 'tooLarge';
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImage(head) ? null : 'notImage';
}
