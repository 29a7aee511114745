import { useEffect, useMemo, useState } from 'react';
import Menu from 'antd/es/menu';
import type { MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MenuEntry } from '@app/contract/access';
import type { AccessModel } from '../lib/access';
import { useSettings } from '../lib/settings';
import { MenuIcon } from '../components/MenuIcon';
import { routeChain } from './route-match';

type Item = Required<MenuProps>['items'][number];

/** One menu entry as an antd item (its label and icon are props of the item, not list children). */
function toItem(e: MenuEntry, access: AccessModel): Item {
  const label = <span data-testid={`menu-${e.name}`}>{access.title(e.name, e.title)}</span>;
  const icon = <MenuIcon name={access.icon(e.name, e.icon)} />;
  return e.children?.length ? { key: `sub:${e.name}`, icon, label, children: toItems(e.children, access) } : { key: e.path, icon, label, title: access.title(e.name, e.title) };
}

function toItems(entries: MenuEntry[], access: AccessModel): Item[] {
  return entries.map((e) => toItem(e, access));
}

/** Leaf menu paths and the submenu keys above each. */
function indexMenu(entries: MenuEntry[], parents: string[] = [], out = new Map<string, string[]>()) {
  for (const e of entries) {
    if (e.children?.length) indexMenu(e.children, [...parents, `sub:${e.name}`], out);
    else out.set(e.path, parents);
  }
  return out;
}

export function Sidebar({ access, collapsed, onNavigate }: { access: AccessModel; collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const showLogo = useSettings((s) => s.sidebarLogo);
  const items = useMemo(() => toItems(access.menu, access), [access]);
  const index = useMemo(() => indexMenu(access.menu), [access.menu]);

  // The selected entry: the page itself, or for hidden pages (e.g. a record of one device) the
  // nearest menu entry in the same branch.
  const selected = useMemo(() => {
    if (index.has(pathname)) return pathname;
    const page = access.pages.find((p) => {
      const re = new RegExp(`^${p.path.replace(/:[^/]+/g, '[^/]+')}$`);
      return re.test(pathname);
    });
    if (page) {
      const chain = routeChain(page.name);
      const parent = chain[chain.length - 2];
      const sibling = parent?.children?.map((c) => c.path).find((p) => index.has(p));
      if (sibling) return sibling;
      if (parent && index.has(parent.path)) return parent.path;
      const entry = access.menu.find((m) => m.name === parent?.name);
      if (entry) return entry.path;
    }
    return '';
  }, [pathname, index, access]);

  const [openKeys, setOpenKeys] = useState<string[]>(() => index.get(selected) ?? []);
  useEffect(() => {
    const parents = index.get(selected);
    if (parents?.length) setOpenKeys((keys) => Array.from(new Set([...keys, ...parents])));
  }, [selected, index]);

  return (
    <nav className="sidebar" aria-label={t('nav.mainMenu')}>
      {showLogo ? (
        <a
          className="sidebar-logo"
          href="/dashboard/index"
          onClick={(ev) => {
            ev.preventDefault();
            navigate('/dashboard/index');
            onNavigate?.();
          }}
          data-testid="sidebar-logo"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {!collapsed ? <span className="sidebar-logo-title">{t('app.shortTitle')}</span> : null}
        </a>
      ) : null}
      <Menu
        data-testid="sidebar-menu"
        mode="inline"
        theme="dark"
        // Inline, so it beats antd's own (more specific) root-menu border rule without !important.
        style={{ borderInlineEnd: 'none' }}
        items={items}
        selectedKeys={selected ? [selected] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => {
          if (key !== pathname) navigate(key);
          onNavigate?.();
        }}
      />
    </nav>
  );
}
