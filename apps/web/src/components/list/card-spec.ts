/**
 * The card a list row becomes on a phone (below 576 px, components/list/CardList.tsx), read from the
 * list's own antd columns: a column says what it is on a card with `mobile`, and the card renders the
 * column's own `render`, so a page adds a word to a column, not a second renderer.
 *
 * - `title`: the card's heading (default: the first column that is not the status or the actions);
 * - `field`: a labelled line under it (default: the two to three columns after the title);
 * - `status`: a tag beside the title (default: the column keyed `status`);
 * - `actions`: the row's actions, in one menu (default: the column keyed `actions`);
 * - `false`: left off the card.
 */
import type { Key, ReactNode } from 'react';
import type { ColumnsType, ColumnType } from 'antd/es/table/interface';

export type MobileRole = 'title' | 'field' | 'status' | 'actions' | false;

declare module 'antd/es/table/interface' {
  interface ColumnType<RecordType> {
    /** What the column is on a phone's card (components/list/card-spec.ts). Ignored by the table. */
    mobile?: MobileRole;
  }
}

export interface CardColumn<Row> {
  key: string;
  label: ReactNode;
  column: ColumnType<Row>;
}

export interface CardSpec<Row> {
  title?: CardColumn<Row>;
  status?: CardColumn<Row>;
  fields: CardColumn<Row>[];
  actions?: CardColumn<Row>;
}

/** Fields shown when no column is marked `field`. */
const DEFAULT_FIELDS = 3;

function keyOf<Row>(c: ColumnType<Row>, i: number): string {
  if (c.key != null) return String(c.key);
  if ('dataIndex' in c && c.dataIndex != null) return Array.isArray(c.dataIndex) ? c.dataIndex.join('.') : String(c.dataIndex);
  return `col-${i}`;
}

/** Leaf columns (groups flattened). */
function leaves<Row>(columns: ColumnsType<Row>): ColumnType<Row>[] {
  return columns.flatMap((c) => ('children' in c && c.children ? leaves(c.children as ColumnsType<Row>) : [c as ColumnType<Row>]));
}

/** The card of a list, from its columns' `mobile` marks (defaults above when a role is not marked). */
export function cardSpec<Row>(columns: ColumnsType<Row>): CardSpec<Row> {
  const cols = leaves(columns).map((column, i) => ({ key: keyOf(column, i), label: typeof column.title === 'function' ? null : column.title, column }));
  const marked = (role: MobileRole) => cols.filter((c) => c.column.mobile === role);
  const unmarked = (c: CardColumn<Row>) => c.column.mobile === undefined;
  const actions = marked('actions')[0] ?? cols.find((c) => unmarked(c) && c.key === 'actions');
  const status = marked('status')[0] ?? cols.find((c) => unmarked(c) && c.key === 'status');
  const rest = cols.filter((c) => c !== actions && c !== status);
  const title = marked('title')[0] ?? rest.find(unmarked);
  const explicit = marked('field');
  const fields = explicit.length ? explicit : rest.filter((c) => c !== title && unmarked(c)).slice(0, DEFAULT_FIELDS);
  return { title, status, fields, actions };
}

function valueAt(row: object, dataIndex: unknown): unknown {
  if (dataIndex == null) return undefined;
  const path = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let v: unknown = row;
  for (const p of path) v = v == null ? undefined : (v as Record<string | number, unknown>)[p as string];
  return v;
}

/** A column's cell for a row, as the table would render it (its `render`, else the value). */
export function cellOf<Row extends object>(column: ColumnType<Row>, row: Row, index: number): ReactNode {
  const value = valueAt(row, 'dataIndex' in column ? column.dataIndex : undefined);
  if (!column.render) return value as ReactNode;
  const out = column.render(value, row, index) as unknown;
  // A render may answer { children, props } (a cell with colSpan and the like): the card wants the children.
  if (out && typeof out === 'object' && 'children' in out && 'props' in out && !('$$typeof' in out)) return (out as { children: ReactNode }).children;
  return out as ReactNode;
}

/** The title column's plain value (a serial, a name) for accessible names such as "Actions: SN-0001". */
export function plainTitle<Row extends object>(spec: CardSpec<Row>, row: Row): string | undefined {
  const c = spec.title?.column;
  if (!c || !('dataIndex' in c)) return undefined;
  const v = valueAt(row, c.dataIndex);
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

export function rowKeyOf<Row extends object>(rowKey: string | ((row: Row) => Key), row: Row): Key {
  return typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, Key>)[rowKey] as Key);
}

/** The same columns without the card marks, for the table. */
export function tableColumns<Row>(columns: ColumnsType<Row>): ColumnsType<Row> {
  return columns.map((c) => {
    if (!('mobile' in c)) return c;
    const { mobile: _mobile, ...rest } = c as ColumnType<Row>;
    return rest;
  });
}

/**
 * Between 576 and 992 px a table scrolls sideways under its first column, which stays put (the row's
 * name); nothing else is pinned, or a pinned actions column would cover the rest (issue 38).
 */
export function tabletColumns<Row>(columns: ColumnsType<Row>, tablet: boolean): ColumnsType<Row> {
  if (!tablet) return columns;
  return columns.map((c, i) => (i === 0 ? { ...c, fixed: 'left' as const } : c.fixed ? { ...c, fixed: undefined } : c));
}
