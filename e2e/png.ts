/** A real PNG, drawn in code: a light grid with a framed shape (a marker lands on a visible spot; an upload is a real image). */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
export function makePng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const i = y * (width * 3 + 1) + 1 + x * 3;
      let [r, g, b] = [250, 251, 253];
      if (x % 40 === 0 || y % 40 === 0) [r, g, b] = [226, 232, 240];
      const inBody = (x - width / 2) ** 2 / (width * 0.32) ** 2 + (y - height / 2) ** 2 / (height * 0.42) ** 2 <= 1;
      if (inBody) [r, g, b] = [214, 234, 248];
      const edge = Math.abs((x - width / 2) ** 2 / (width * 0.32) ** 2 + (y - height / 2) ** 2 / (height * 0.42) ** 2 - 1) < 0.02;
      if (edge) [r, g, b] = [24, 144, 255];
      if (x < 3 || y < 3 || x >= width - 3 || y >= height - 3) [r, g, b] = [120, 130, 145];
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
