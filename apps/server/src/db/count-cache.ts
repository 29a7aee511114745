import { NotifiedCache } from './session-cache';

/**
 * The list count cache: a list's capped total (`{ total, capped }`, lib/list.ts) per filter set, so paging
 * through a list or changing its order answers the page without counting its rows again. At a million
 * devices the count is most of a page's SQL (the capped scan of up to 10,001 rows, or a keyword's whole
 * match): docs/benchmarks.md.
 *
 * It is emptied, as the session cache is (db/session-cache.ts), by the notices of the channel
 * `list_counts_changed`, which triggers send at the commit of any write a total could depend on (migration
 * 0015: devices added, removed, or changed in a filtered column; the institution tree moved). A write
 * through this process has emptied it before its commit returns; another process's write a moment after.
 * Entries expire after a minute in case a notice is lost unseen. A total that moves with the clock alone
 * (the "expiring" filter) is kept with `until`, the next moment a row could enter or leave it.
 */
export const COUNTS_CHANNEL = 'list_counts_changed';

export interface CappedTotal {
  total: number;
  capped: boolean;
  /** A total that moves with the clock (the "expiring" filter): the time (ms) it may next change by itself; not used from then on. */
  until?: number;
}

const caches = new WeakMap<object, NotifiedCache<CappedTotal>>();

/** The count cache of an open database (db/client.ts sets it); none inside a transaction or with the caches off. */
export const countCacheOf = (db: object): NotifiedCache<CappedTotal> | undefined => caches.get(db);
export const setCountCache = (db: object, cache: NotifiedCache<CappedTotal>) => caches.set(db, cache);

export const newCountCache = () => new NotifiedCache<CappedTotal>(60_000, 10_000);
