/**
 * The region picker of every address form: an antd Cascader over the server's region table (province,
 * city, district), value = the codes from the top ([province, city, district], or [province, city] for
 * the cities without districts). Search matches Chinese names and pinyin alike ("杭州", "hangzhou"),
 * whatever the interface language. The table loads on first use (see RegionName.tsx).
 */
import { useMemo } from 'react';
import Cascader from 'antd/es/cascader';
import type { CascaderProps } from 'antd';
import type { RegionTable, RegionTuple } from '@app/contract/api/regions';
import type { Lang } from '@app/contract/i18n';
import { useSettings } from '../lib/settings';
import { regionLabel, useRegionTable } from './RegionName';

export interface RegionOption {
  value: string;
  label: string;
  /** Lower-case Chinese name and pinyin (with and without spaces), for search. */
  search: string;
  children?: RegionOption[];
}

const optionCache = new WeakMap<RegionTable, Partial<Record<Lang, RegionOption[]>>>();
/** The Cascader's options in the reader's language (built once per table and language). */
export function regionOptions(table: RegionTable, lang: Lang): RegionOption[] {
  const byLang = optionCache.get(table) ?? {};
  optionCache.set(table, byLang);
  const cached = byLang[lang];
  if (cached) return cached;
  const build = (list: RegionTuple[]): RegionOption[] =>
    list.map(([code, name, pinyin, children]) => {
      const lower = pinyin.toLowerCase();
      const option: RegionOption = { value: code, label: regionLabel({ name, pinyin }, lang), search: `${name} ${lower} ${lower.replace(/[\s']/g, '')}` };
      if (children?.length) option.children = build(children);
      return option;
    });
  const options = build(table.tree);
  byLang[lang] = options;
  return options;
}

/** Whether a search text matches any level of a path of options. */
export const regionSearchMatch = (input: string, path: readonly RegionOption[]) => {
  const needle = input.trim().toLowerCase();
  return !!needle && path.some((o) => o.search.includes(needle));
};

export type RegionCascaderProps = Omit<CascaderProps<RegionOption>, 'options' | 'value' | 'onChange' | 'showSearch' | 'multiple'> & {
  value?: string[] | null;
  onChange?: (value: string[] | undefined) => void;
};

/** A searchable Cascader of the region table; value = the region's codes from the top. */
export function RegionCascader({ value, onChange, ...rest }: RegionCascaderProps) {
  const lang = useSettings((s) => s.lang);
  const { data, isFetching } = useRegionTable();
  const options = useMemo(() => (data ? regionOptions(data, lang) : []), [data, lang]);
  return (
    <Cascader<RegionOption>
      allowClear
      loading={isFetching && !data}
      options={options}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v?.length ? (v as string[]) : undefined)}
      showSearch={{ filter: (input, path) => regionSearchMatch(input, path), limit: 50 }}
      popupMatchSelectWidth={false}
      {...rest}
    />
  );
}
