/** Percentiles, number formats and markdown tables: the bench's only copies of them. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function pct(xs: readonly number[], p: number): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const median = (xs: readonly number[]) => pct(xs, 50);

export function ms(x: number): string {
  if (!Number.isFinite(x)) return '-';
  return x >= 100 ? `${Math.round(x).toLocaleString('en-US')} ms` : `${x.toFixed(1)} ms`;
}

/** p50 / p95 in one cell. */
export const p50p95 = (xs: readonly number[]) => (xs.length ? `${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}` : '-');

export const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
export const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '-');
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
/** A ratio judged against a line (part 7): three decimals, so that a miss never prints as the line itself. */
export const ratioFine = (x: number) => (Number.isFinite(x) ? `${x.toFixed(3)}x` : '-');

/** A markdown table (printed by the caller). */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Runs `fn` n times one after another and answers each run's time in ms. */
export async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    out.push(performance.now() - s);
  }
  return out;
}
