/** The caller's own settings of a list (contract api/preferences.ts), kept on the server per account. */
import type { Key, ReactNode } from 'react';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { LIST_COLUMNS, type ColumnSetting, type ListName, type ListPreferences } from '@app/contract/api/preferences';
import { queryKeyOf, useEndpoint, useEndpointMutation } from './endpoint-queries';

export type { ListName };

/** The list's settings; a list not named (no `listName`) asks nothing. */
export function useListPreferences(list: ListName | undefined) {
  return useEndpoint('preferences.get', { list: list ?? 'equipment.list' }, { enabled: !!list, staleTime: 5 * 60_000 });
}

/** Writes of the list's settings; the cached settings follow (optimistically for the columns). */
export function useListPreferenceWrites(list: ListName) {
  const qc = useQueryClient();
  const key = queryKeyOf('preferences.get', { list });
  const columns = useEndpointMutation('preferences.saveColumns', { invalidate: ['preferences'], successMessage: false });
  return {
    saveColumns: (next: ColumnSetting[] | null) => {
      qc.setQueryData<ListPreferences>(key, (old) => (old ? Object.assign({}, old, { columns: next }) : old));
      return columns.mutateAsync({ list, columns: next });
    },
    addView: useEndpointMutation('preferences.addView', { invalidate: ['preferences'] }),
    editView: useEndpointMutation('preferences.editView', { invalidate: ['preferences'] }),
    deleteView: useEndpointMutation('preferences.deleteView', { invalidate: ['preferences'] }),
  };
}

export const columnKey = (c: { key?: Key; dataIndex?: unknown }) => String(c.key ?? (typeof c.dataIndex === 'string' ? c.dataIndex : ''));

/** The configurable columns of a list as its page has them, with their titles, in the setting's order. */
export function columnRows<Row>(list: ListName, columns: ColumnsType<Row>, settings: readonly ColumnSetting[] | null | undefined) {
  const known = new Set<string>(LIST_COLUMNS[list]);
  const titled = new Map<string, ReactNode>();
  for (const c of columns) {
    const key = columnKey(c as { key?: Key; dataIndex?: unknown });
    if (known.has(key)) titled.set(key, typeof c.title === 'function' ? key : (c.title as ReactNode));
  }
  const out: { key: string; title: ReactNode; visible: boolean }[] = [];
  for (const s of settings ?? []) if (titled.has(s.key)) out.push({ key: s.key, title: titled.get(s.key), visible: s.visible });
  for (const [key, title] of titled) if (!out.some((r) => r.key === key)) out.push({ key, title, visible: true });
  return out;
}

/**
 * The page's columns as the person set them: the configurable ones in their order, hidden ones left out,
 * then the others (row actions, a column the list does not know) as the page has them. A column pinned to
 * the left stays pinned only while it is first.
 */
export function shapeColumns<Row>(list: ListName | undefined, columns: ColumnsType<Row>, settings: readonly ColumnSetting[] | null | undefined): ColumnsType<Row> {
  if (!list || !settings?.length) return columns;
  const rows = columnRows(list, columns, settings);
  const byKey = new Map(columns.map((c) => [columnKey(c as { key?: Key; dataIndex?: unknown }), c]));
  const known = new Set<string>(LIST_COLUMNS[list]);
  const shaped = rows.filter((r) => r.visible).map((r) => byKey.get(r.key)!);
  const rest = columns.filter((c) => !known.has(columnKey(c as { key?: Key; dataIndex?: unknown })));
  return [...shaped, ...rest].map((c, i) => (c.fixed === 'left' || c.fixed === true ? (i === 0 ? c : Object.assign({}, c, { fixed: undefined })) : c));
}
