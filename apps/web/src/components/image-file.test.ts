import { describe, expect, it } from 'vitest';
import { checkImageFile, sniffImage } from './image-file';

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

describe('image checks before upload', () => {
  it('reads the type from the content', () => {
    expect(sniffImage(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'))).toBe('png');
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(bytes('GIF89a'))).toBe('gif');
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(sniffImage(bytes('<!doctype html><p>hi'))).toBeNull();
    expect(sniffImage(bytes([0x89, 0x50]))).toBeNull();
  });
  it('refuses an HTML page named .png, empty files and big files', async () => {
    expect(await checkImageFile(new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }))).toBe('notImage');
    expect(await checkImageFile(new Blob([]))).toBe('empty');
    expect(await checkImageFile(new Blob([new Uint8Array(5 * 1024 * 1024 + 1)]))).toBe('tooLarge');
    expect(await checkImageFile(new Blob([bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]))).toBeNull();
  });
});
