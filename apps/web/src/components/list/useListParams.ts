/**
 * List state in the URL (ui.md): page, limit, sort, order and the filters live in the search params,
 * so a link or a refresh restores the list, and a kept-alive tab comes back as it was.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type SortOrder = 'ascend' | 'descend';
export type FilterValue = string | number | boolean | null | undefined;

export interface ListParamsOptions<F extends string> {
  /** Filter names kept in the URL (also the names sent to the server). */
  filters: readonly F[];
  defaultLimit?: number;
  defaultSort?: string;
  defaultOrder?: SortOrder;
}

export interface ListParams<F extends string = string> {
  page: number;
  limit: number;
  sort?: string;
  order?: SortOrder;
  /** Every filter name of this list. */
  names: readonly F[];
  /** Current filter values as URL strings (absent = not set). */
  filters: Partial<Record<F, string>>;
  /** True when any filter is set (the empty state then says "no match", not "no data"). */
  hasFilters: boolean;
  /** What to send to a `/list` call: page, limit, sort, order and the set filters. */
  query: Record<string, string | number>;
  /** Replaces every filter (unset ones are removed) and goes back to page 1. */
  setFilters: (values: Partial<Record<F, FilterValue>>) => void;
  /** Changes some filters, keeps the others, back to page 1. */
  patchFilters: (values: Partial<Record<F, FilterValue>>) => void;
  resetFilters: () => void;
  setPage: (page: number, limit?: number) => void;
  setSort: (sort?: string, order?: SortOrder) => void;
  /** Replaces the filters and the sort at once (a saved view), back to page 1. */
  setView: (filters: Partial<Record<F, FilterValue>>, sort?: string | null, order?: SortOrder | null) => void;
}

const DEFAULT_LIMIT = 20;

const toParam = (v: FilterValue): string | null => {
  if (v === undefined || v === null || v === '' || v === false) return null;
  if (v === true) return '1';
  return String(v);
};

type ListState<F extends string> = Pick<ListParams<F>, 'page' | 'limit' | 'sort' | 'order' | 'filters' | 'hasFilters' | 'query'>;

/** The order in the address: both of sort and order, or neither. */
function writeSort(next: URLSearchParams, sort?: string | null, order?: SortOrder | null) {
  if (sort && order) {
    next.set('sort', sort);
    next.set('order', order);
  } else {
    next.delete('sort');
    next.delete('order');
  }
}

/**
 * A list's state as an address's search params give it: what the page sends to its `/list` call. Pure, so a
 * call can start before the page renders (lib/pages `prefetch`) under the very key the page will read.
 */
export function listStateOf<F extends string>(params: URLSearchParams, opts: ListParamsOptions<F>): ListState<F> {
  const defaultLimit = opts.defaultLimit ?? DEFAULT_LIMIT;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1);
  const limit = Math.min(200, Math.max(1, Number.parseInt(params.get('limit') ?? '', 10) || defaultLimit));
  const rawOrder = params.get('order');
  const sortParam = params.get('sort');
  const sort = sortParam || opts.defaultSort;
  const order: SortOrder | undefined = rawOrder === 'ascend' || rawOrder === 'descend' ? rawOrder : sortParam ? undefined : opts.defaultOrder;
  const values: Partial<Record<F, string>> = {};
  for (const f of opts.filters) {
    const v = params.get(f);
    if (v !== null && v !== '') values[f] = v;
  }
  const query: Record<string, string | number> = { page, limit, ...(values as Record<string, string>) };
  if (sort && order) {
    query.sort = sort;
    query.order = order;
  }
  return { page, limit, sort: order ? sort : undefined, order, filters: values, hasFilters: Object.keys(values).length > 0, query };
}

export function useListParams<F extends string>(opts: ListParamsOptions<F>): ListParams<F> {
  const [params, setParams] = useSearchParams();
  const defaultLimit = opts.defaultLimit ?? DEFAULT_LIMIT;
  // A caller may pass a new array each render: everything below follows the names, not the array's identity.
  const filterKey = opts.filters.join(',');
  const filters = useMemo(() => (filterKey ? (filterKey.split(',') as F[]) : []), [filterKey]);

  const state = useMemo(
    () => listStateOf(params, { filters, defaultLimit, defaultSort: opts.defaultSort, defaultOrder: opts.defaultOrder }),
    [params, defaultLimit, filters, opts.defaultSort, opts.defaultOrder],
  );

  const update = useCallback(
    (mutate: (next: URLSearchParams) => void) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          mutate(next);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  /** The filters' values into the address (all others cleared when `replaceAll`), back to page 1. */
  const filtersInto = useCallback(
    (next: URLSearchParams, values: Partial<Record<F, FilterValue>>, replaceAll: boolean) => {
      if (replaceAll) for (const f of filters) next.delete(f);
      for (const [k, v] of Object.entries(values) as [F, FilterValue][]) {
        if (!filters.includes(k)) continue;
        const p = toParam(v);
        if (p === null) next.delete(k);
        else next.set(k, p);
      }
      next.delete('page');
    },
    [filters],
  );
  const writeFilters = useCallback((values: Partial<Record<F, FilterValue>>, replaceAll: boolean) => update((next) => filtersInto(next, values, replaceAll)), [update, filtersInto]);

  return {
    ...state,
    names: filters,
    setFilters: useCallback((values) => writeFilters(values, true), [writeFilters]),
    patchFilters: useCallback((values) => writeFilters(values, false), [writeFilters]),
    resetFilters: useCallback(() => writeFilters({}, true), [writeFilters]),
    setPage: useCallback(
      (page: number, limit?: number) =>
        update((next) => {
          if (limit && limit !== Number(next.get('limit') ?? defaultLimit)) {
            if (limit === defaultLimit) next.delete('limit');
            else next.set('limit', String(limit));
            next.delete('page');
            return;
          }
          if (page <= 1) next.delete('page');
          else next.set('page', String(page));
        }),
      [update, defaultLimit],
    ),
    setSort: useCallback(
      (sort?: string, order?: SortOrder) =>
        update((next) => {
          writeSort(next, sort, order);
          next.delete('page');
        }),
      [update],
    ),
    setView: useCallback(
      (values: Partial<Record<F, FilterValue>>, sort?: string | null, order?: SortOrder | null) =>
        update((next) => {
          filtersInto(next, values, true);
          writeSort(next, sort, order);
        }),
      [update, filtersInto],
    ),
  };
}
