import { deflateSync } from 'node:zlib';

/*
 * The built-in schematic images of the demo data: a human outline drawn with a few shapes and encoded
 * as PNG here (no image files in the repository, no files written at seed time). They are served at
 * `${API_BASE}/uploads/builtin-<name>.png` by the uploads module, like any uploaded image.
 */

// ---------------------------------------------------------------------------------------------
// PNG encoding (RGB, 8 bits, no interlace)
// ---------------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes RGB pixels (width x height x 3 bytes, rows top to bottom) as a PNG file. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A plain image of one colour (tests, placeholders). */
export function solidPng(width: number, height: number, colour: Rgb = [200, 220, 240]): Buffer {
  const c = new Canvas(width, height, colour);
  return c.png();
}

// ---------------------------------------------------------------------------------------------
// A tiny raster canvas
// ---------------------------------------------------------------------------------------------

export type Rgb = [number, number, number];
interface Shape {
  box: [number, number, number, number];
  inside: (x: number, y: number) => boolean;
}

const circle = (cx: number, cy: number, r: number): Shape => ellipse(cx, cy, r, r);
const ellipse = (cx: number, cy: number, rx: number, ry: number): Shape => ({
  box: [cx - rx, cy - ry, cx + rx, cy + ry],
  inside: (x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1,
});
/** All points within r of the segment (x1, y1)-(x2, y2). */
const capsule = (x1: number, y1: number, x2: number, y2: number, r: number): Shape => {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy || 1;
  return {
    box: [Math.min(x1, x2) - r, Math.min(y1, y2) - r, Math.max(x1, x2) + r, Math.max(y1, y2) + r],
    inside: (x, y) => {
      const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / len2));
      return (x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2 <= r * r;
    },
  };
};
const polygon = (pts: [number, number][]): Shape => ({
  box: [Math.min(...pts.map((p) => p[0])), Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[1]))],
  inside: (x, y) => {
    let odd = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i]!;
      const [xj, yj] = pts[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
    return odd;
  },
});

class Canvas {
  readonly rgb: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.rgb.set(background, i * 3);
  }

  /** A mask of the union of shapes. */
  mask(shapes: Shape[]): Uint8Array {
    const m = new Uint8Array(this.width * this.height);
    for (const s of shapes) {
      const [x0, y0, x1, y1] = s.box.map(Math.round) as [number, number, number, number];
      for (let y = Math.max(0, y0); y <= Math.min(this.height - 1, y1); y++) {
        for (let x = Math.max(0, x0); x <= Math.min(this.width - 1, x1); x++) if (s.inside(x + 0.5, y + 0.5)) m[y * this.width + x] = 1;
      }
    }
    return m;
  }

  /** Fills a mask, with an outline of `border` pixels along its edge. */
  paint(m: Uint8Array, fill: Rgb, outline?: Rgb, border = 2) {
    const { width: w, height: h } = this;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!m[y * w + x]) continue;
        let edge = false;
        if (outline) {
          for (let d = 1; d <= border && !edge; d++) {
            edge = x < d || y < d || x >= w - d || y >= h - d || !m[y * w + x - d] || !m[y * w + x + d] || !m[(y - d) * w + x] || !m[(y + d) * w + x];
          }
        }
        this.rgb.set(edge ? outline! : fill, (y * w + x) * 3);
      }
    }
  }

  fill(shapes: Shape[], colour: Rgb, outline?: Rgb, border = 2) {
    this.paint(this.mask(shapes), colour, outline, border);
  }

  /** A polyline of capsules; dashed when `dash` is set (drawn/skipped lengths in pixels). */
  line(points: [number, number][], width: number, colour: Rgb, dash?: [number, number]) {
    const shapes: Shape[] = [];
    for (let i = 1; i < points.length; i++) {
      const [x1, y1] = points[i - 1]!;
      const [x2, y2] = points[i]!;
      if (!dash) {
        shapes.push(capsule(x1, y1, x2, y2, width / 2));
        continue;
      }
      const len = Math.hypot(x2 - x1, y2 - y1);
      for (let s = 0; s < len; s += dash[0] + dash[1]) {
        const e = Math.min(len, s + dash[0]);
        shapes.push(capsule(x1 + ((x2 - x1) * s) / len, y1 + ((y2 - y1) * s) / len, x1 + ((x2 - x1) * e) / len, y1 + ((y2 - y1) * e) / len, width / 2));
      }
    }
    this.fill(shapes, colour);
  }

  png(): Buffer {
    return encodePng(this.width, this.height, this.rgb);
  }
}

// ---------------------------------------------------------------------------------------------
// The body outline and the built-in diagrams
// ---------------------------------------------------------------------------------------------

export const BODY_WIDTH = 600;
export const BODY_HEIGHT = 1000;
const SKIN: Rgb = [246, 226, 208];
const INK: Rgb = [110, 82, 62];
const PAPER: Rgb = [255, 255, 255];
const ZONE: Rgb = [214, 232, 250];
const BLUE: Rgb = [31, 111, 209];
const RED: Rgb = [200, 60, 60];
const GREY: Rgb = [170, 160, 150];

/** Mirrors an x coordinate across the body's midline. */
export const mirrorX = (x: number) => BODY_WIDTH - x;

/** One side's limbs (the viewer's left), mirrored for the other side. */
function limbs(): Shape[] {
  const side = (m: (x: number) => number): Shape[] => [
    capsule(m(214), 205, m(172), 385, 27), // upper arm
    capsule(m(172), 385, m(146), 545, 22), // forearm
    capsule(m(144), 562, m(138), 622, 21), // hand
    capsule(m(262), 555, m(254), 770, 37), // thigh
    capsule(m(254), 770, m(248), 935, 28), // lower leg
    ellipse(m(246), 962, 34, 20), // foot
  ];
  return [...side((x) => x), ...side(mirrorX)];
}

function body(): Shape[] {
  return [
    ellipse(300, 95, 50, 62), // head
    capsule(300, 150, 300, 192, 24), // neck
    polygon([
      [212, 190],
      [388, 190],
      [398, 215],
      [382, 340],
      [368, 470],
      [388, 560],
      [212, 560],
      [232, 470],
      [218, 340],
      [202, 215],
    ]),
    ...limbs(),
  ];
}

type Drawing = 'body-front' | 'body-measure' | 'body-back';

function draw(kind: Drawing): Buffer {
  const c = new Canvas(BODY_WIDTH, BODY_HEIGHT, PAPER);
  const outline = body();
  if (kind === 'body-measure') {
    // Measurement zones: wrists and hands, ankles and feet, where the 12 source points lie.
    const zones = [(x: number) => x, mirrorX].flatMap((m) => [ellipse(m(146), 570, 52, 68), ellipse(m(244), 952, 62, 42)]);
    c.fill(zones, ZONE);
  }
  c.fill(outline, SKIN, INK, 2);
  if (kind === 'body-front' || kind === 'body-measure') {
    c.fill([circle(300, 430, 5)], INK); // navel
    c.line(
      [
        [282, 96],
        [290, 96],
      ],
      3,
      INK,
    ); // eyes
    c.line(
      [
        [310, 96],
        [318, 96],
      ],
      3,
      INK,
    );
  }
  if (kind === 'body-back') {
    c.line(
      [
        [300, 40],
        [300, 545],
      ],
      4,
      RED,
    ); // governing vessel along the spine
    for (const m of [(x: number) => x, mirrorX]) {
      // Bladder meridian: inner line beside the spine, down the back of the leg to the little toe.
      c.line(
        [
          [m(270), 150],
          [m(270), 545],
          [m(262), 600],
          [m(252), 770],
          [m(236), 900],
          [m(216), 962],
        ],
        3,
        BLUE,
      );
      c.line(
        [
          [m(244), 200],
          [m(244), 540],
        ],
        2,
        BLUE,
        [8, 6],
      ); // outer line
    }
    c.line(
      [
        [300, 200],
        [300, 540],
      ],
      1,
      GREY,
    );
  }
  return c.png();
}

const cache = new Map<string, Buffer>();

/** Built-in images by stored name (`builtin-body-front.png`, …), or undefined. */
export function builtinImage(name: string): Buffer | undefined {
  const m = /^builtin-(body-front|body-measure|body-back)\.png$/.exec(name);
  if (!m) return undefined;
  let png = cache.get(name);
  if (!png) {
    png = draw(m[1] as Drawing);
    cache.set(name, png);
  }
  return png;
}
