/**
 * WCAG 2 contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio) and a readable variant of the
 * chosen theme colour: the user picks the hue (spec §5 presets such as #faad14 are too light for white
 * text), antd gets the same hue darkened until white text on it, and it as text on white, reach 4.5:1
 * (with a margin for light grey and tinted backgrounds).
 */
type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) =>
  `#${rgb
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parseHex(a)), luminance(parseHex(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** `hex` mixed toward `target` by k (0..1). */
const mix = (hex: string, target: Rgb, k: number) => toHex(parseHex(hex).map((v, i) => v + (target[i]! - v) * k) as Rgb);

/** The first colour, from `hex` toward `target` in small steps, that `ok` accepts (else the target itself). */
export function shiftUntil(hex: string, target: 'black' | 'white', ok: (colour: string) => boolean): string {
  const rgb: Rgb = target === 'black' ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 40; step++) {
    const out = mix(hex.slice(0, 7).toLowerCase(), rgb, step / 40);
    if (ok(out)) return out;
  }
  return toHex(rgb);
}

/** The theme colour as antd's primary: white text on it and it on white both reach 4.5:1. Lower-case hex. */
export function readablePrimary(hex: string): string {
  // 5.3:1 on white keeps 4.5:1 on the grey table header and the tinted selected row.
  return shiftUntil(hex, 'black', (c) => contrast(c, '#ffffff') >= 5.3);
}

/** The theme colour as text or a link on a dark background (`bg`): lightened until it reaches 4.5:1. */
export function readableOnDark(hex: string, bg: string): string {
  return shiftUntil(hex, 'white', (c) => contrast(c, bg) >= MIN_CONTRAST + 0.05);
}
