/**
 * Regions on screen: records store [province, city, district?] codes; these show them as names in the
 * reader's language (Chinese for zh and ja, pinyin for en and es). The table comes from the server
 * (`regions.tree`, about 44 KB gzipped) on the first use of a region on screen, never with the login
 * page, and stays cached for the session.
 */
import { useMemo } from 'react';
import { REGION_PLACEHOLDERS, type RegionTable, type RegionTuple } from '@app/contract/api/regions';
import type { Lang } from '@app/contract/i18n';
import { useSettings } from '../lib/settings';
import { useEndpoint } from './list/endpoint-queries';

export interface RegionEntry {
  name: string;
  pinyin: string;
}
export type RegionIndex = ReadonlyMap<string, RegionEntry>;

/** The region table, loaded once per session on first use. */
export function useRegionTable() {
  return useEndpoint('regions.tree', undefined, { staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });
}

const indexes = new WeakMap<RegionTable, RegionIndex>();
/** Every region of the table by code (built once per table). */
export function regionIndex(table: RegionTable): RegionIndex {
  let index = indexes.get(table);
  if (!index) {
    const map = new Map<string, RegionEntry>();
    const walk = (list: RegionTuple[]) => {
      for (const [code, name, pinyin, children] of list) {
        map.set(code, { name, pinyin });
        if (children) walk(children);
      }
    };
    walk(table.tree);
    index = map;
    indexes.set(table, index);
  }
  return index;
}

/** Whether the reader gets the Chinese names (zh, ja) or the pinyin (en, es). */
export const usesChineseNames = (lang: Lang) => lang === 'zh' || lang === 'ja';
/** One region's name in the reader's language. */
export const regionLabel = (entry: RegionEntry, lang: Lang) => (usesChineseNames(lang) ? entry.name : entry.pinyin);

/**
 * A region written out: "浙江省杭州市西湖区" (zh, ja: from the top, as Chinese addresses are written) or
 * "Xihu Qu, Hangzhou Shi, Zhejiang Sheng" (en, es: from the bottom). The statistics tables' placeholders
 * (市辖区, 县...) are left out; an unknown code shows as itself.
 */
export function regionText(index: RegionIndex | undefined, codes: readonly string[] | null | undefined, lang: Lang): string {
  if (!codes?.length) return '';
  const parts = codes.flatMap((code) => {
    const entry = index?.get(code);
    if (!entry) return [code];
    return REGION_PLACEHOLDERS.includes(entry.name) ? [] : [regionLabel(entry, lang)];
  });
  return usesChineseNames(lang) ? parts.join('') : parts.reverse().join(', ');
}

/**
 * Hook form of regionText (loads the table on first use): null while the table is on its way, so a
 * screen never shows a run of bare codes for a moment; if the table cannot be loaded, the codes.
 */
export function useRegionText() {
  const lang = useSettings((s) => s.lang);
  const { data, isError } = useRegionTable();
  const index = useMemo(() => (data ? regionIndex(data) : undefined), [data]);
  return (codes: readonly string[] | null | undefined): string | null => (index || isError || !codes?.length ? regionText(index, codes, lang) : null);
}

/** Region codes shown as names in the reader's language; `empty` when there is none; a faint "…" while the names load. */
export function RegionName({ codes, empty = '—' }: { codes: readonly string[] | null | undefined; empty?: string }) {
  const text = useRegionText()(codes);
  if (text === null)
    return (
      <span className="text-muted" aria-busy="true">
        …
      </span>
    );
  return text ? <span data-testid="region-name">{text}</span> : <span className="text-muted">{empty}</span>;
}
