/**
 * Pages stay alive while their tab is open (ui.md): each kept page is rendered inside React
 * <Activity>, visible or hidden, keyed by its pathname (+ a refresh counter). Each one sees its own
 * frozen location (through <Routes location>) so hidden pages do not react to another page's URL.
 * Window scroll is remembered per page.
 */
import { Activity, Suspense, useLayoutEffect, useRef } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import Skeleton from 'antd/es/skeleton';
import type { RouteDef } from '@app/contract/routes';
import { useTabs, type TabLocation } from '../lib/tabs';
import { pageOf } from '../lib/pages';
import { preloadNamespace } from '../lib/i18n';
import { ErrorBoundary } from './ErrorBoundary';
import { matchPage } from './route-match';

function PageHost({ route }: { route: RouteDef }) {
  const page = pageOf(route.name);
  if (!page) return null;
  const Page = page.component;
  // The feature's strings load in parallel with its code.
  preloadNamespace(page.feature);
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className="page-loading">
            <Skeleton active paragraph={{ rows: 8 }} />
          </div>
        }
      >
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}

interface Entry {
  key: string;
  route: RouteDef;
  location: TabLocation;
  nonce: number;
}

export function KeepAlive({ pages }: { pages: RouteDef[] }) {
  const location = useLocation();
  const tabs = useTabs((s) => s.tabs);
  const alive = useTabs((s) => s.alive);
  const current = matchPage(location.pathname, pages);
  const currentKey = current ? location.pathname : null;

  const entries: Entry[] = [];
  for (const key of alive) {
    const tab = tabs.find((x) => x.key === key);
    if (!tab) continue;
    const m = matchPage(key, pages);
    if (!m) continue;
    entries.push({ key, route: m.route, nonce: tab.nonce, location: key === currentKey ? location : tab.location });
  }
  if (current && currentKey && !entries.some((e) => e.key === currentKey)) {
    const tab = tabs.find((x) => x.key === currentKey);
    entries.push({ key: currentKey, route: current.route, nonce: tab?.nonce ?? 0, location });
  }
  // Stable order (by key) so React never remounts a page because the LRU order changed.
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  useScrollMemory(currentKey);

  return (
    <>
      {entries.map((e) => (
        <Activity key={`${e.key}#${e.nonce}`} mode={e.key === currentKey ? 'visible' : 'hidden'}>
          <div className="page-frame" data-page={e.route.name}>
            <Routes location={e.location}>
              <Route path={e.route.path} element={<PageHost route={e.route} />} />
            </Routes>
          </div>
        </Activity>
      ))}
    </>
  );
}

/** Remembers window.scrollY per page and restores it when the page shows again. */
function useScrollMemory(activeKey: string | null) {
  const positions = useRef(new Map<string, number>());
  const active = useRef(activeKey);
  useLayoutEffect(() => {
    const onScroll = () => {
      if (active.current) positions.current.set(active.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    active.current = activeKey;
    window.scrollTo(0, activeKey ? (positions.current.get(activeKey) ?? 0) : 0);
  }, [activeKey]);
}
