/**
 * Visited views (the tags bar) and which of them are kept alive. A tab is identified by its pathname
 * (same page with another id = another tab); it remembers the last full path (with the list's search
 * params) so coming back restores filters. At most MAX_ALIVE pages are kept mounted (hidden).
 * A page may name its own tab (`useTabTitle`), e.g. "LU9 Taiyuan · Treatment actions".
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { create } from 'zustand';

export const MAX_ALIVE = 10;

export interface TabLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export interface Tab {
  /** The pathname: the tab's identity. */
  key: string;
  /** Route name (for titles and the page component). */
  name: string;
  /** Last location seen in this tab. */
  location: TabLocation;
  affix: boolean;
  /** Bumped by "refresh": part of the kept page's React key, so the page remounts. */
  nonce: number;
}

interface TabsState {
  tabs: Tab[];
  /** Keys of mounted pages, least recently used first. */
  alive: string[];
  /** Titles pages gave their own tab (by tab key); the route's title otherwise. */
  titles: Record<string, string>;
  setTitle: (key: string, title: string) => void;
  visit: (tab: Omit<Tab, 'nonce' | 'affix'> & { affix?: boolean }) => void;
  ensureAffix: (list: { key: string; name: string }[]) => void;
  close: (key: string) => void;
  closeOthers: (key: string) => void;
  closeAll: () => void;
  refresh: (key: string) => void;
  /** Drops every tab and kept page (logout, role switch). */
  reset: () => void;
}

const fullPathOf = (l: TabLocation) => l.pathname + l.search + l.hash;
export { fullPathOf };

/** The titles of the tabs still open (a closed tab forgets the title its page gave it). */
const keepTitles = (titles: Record<string, string>, tabs: Tab[]) => {
  const out: Record<string, string> = {};
  for (const t of tabs) if (titles[t.key] !== undefined) out[t.key] = titles[t.key]!;
  return out;
};

export const useTabs = create<TabsState>()((set, get) => ({
  tabs: [],
  alive: [],
  titles: {},
  setTitle: (key, title) => {
    if (get().titles[key] !== title) set({ titles: { ...get().titles, [key]: title } });
  },
  visit: (tab) => {
    const { tabs, alive } = get();
    const existing = tabs.find((x) => x.key === tab.key);
    const nextTabs = existing ? tabs.map((x) => (x.key === tab.key ? { ...x, location: tab.location, name: tab.name } : x)) : [...tabs, { ...tab, affix: !!tab.affix, nonce: 0 }];
    let nextAlive = [...alive.filter((k) => k !== tab.key), tab.key];
    if (nextAlive.length > MAX_ALIVE) nextAlive = nextAlive.slice(nextAlive.length - MAX_ALIVE);
    set({ tabs: nextTabs, alive: nextAlive });
  },
  ensureAffix: (list) => {
    const { tabs } = get();
    const missing = list.filter((a) => !tabs.some((x) => x.key === a.key));
    const marked = tabs.map((x) => (list.some((a) => a.key === x.key) ? { ...x, affix: true } : x));
    if (!missing.length && marked.every((x, i) => x.affix === tabs[i]!.affix)) return;
    const affixTabs: Tab[] = missing.map((a) => ({
      key: a.key,
      name: a.name,
      affix: true,
      nonce: 0,
      location: { pathname: a.key, search: '', hash: '', state: null, key: 'affix' },
    }));
    set({ tabs: [...affixTabs, ...marked] });
  },
  close: (key) => {
    const { tabs, alive } = get();
    if (tabs.find((x) => x.key === key)?.affix) return;
    const rest = tabs.filter((x) => x.key !== key);
    set({ tabs: rest, alive: alive.filter((k) => k !== key), titles: keepTitles(get().titles, rest) });
  },
  closeOthers: (key) => {
    const { tabs, alive } = get();
    const keep = tabs.filter((x) => x.affix || x.key === key);
    set({ tabs: keep, alive: alive.filter((k) => keep.some((x) => x.key === k)), titles: keepTitles(get().titles, keep) });
  },
  closeAll: () => {
    const { tabs, alive } = get();
    const keep = tabs.filter((x) => x.affix);
    set({ tabs: keep, alive: alive.filter((k) => keep.some((x) => x.key === k)), titles: keepTitles(get().titles, keep) });
  },
  refresh: (key) => {
    set({ tabs: get().tabs.map((x) => (x.key === key ? { ...x, nonce: x.nonce + 1 } : x)) });
  },
  reset: () => set({ tabs: [], alive: [], titles: {} }),
}));

/**
 * Names the calling page's tab (and the window title while it shows): `useTabTitle(data ? `${code} ${name}
 * · ${t('title')}` : null)`. Nothing (null, '') keeps the route's title. The title stays while the tab
 * is open, also while the page is kept alive hidden; closing the tab forgets it.
 */
export function useTabTitle(title: string | null | undefined) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (title) useTabs.getState().setTitle(pathname, title);
  }, [pathname, title]);
}
