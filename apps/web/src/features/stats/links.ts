import { STATS_PAGES, type StatsPage } from '@app/contract/api/stats';
import { findRoute } from '@app/contract/routes';

/** The address of a stats page (from the route table, never a literal) with the current range's search string. */
export function statsHref(page: StatsPage, search: string): string {
  const path = findRoute(STATS_PAGES[page].route)?.path ?? '/';
  return search ? `${path}?${search}` : path;
}
