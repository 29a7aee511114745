/**
 * Tags of visited views (spec §2): one per pathname; affix tags cannot close; refresh (remounts only
 * that page through /redirect), close, close others, close all, from the context menu or the actions
 * button. Keyboard: tags are tabs (arrow keys move, Enter opens, Delete closes).
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTabs, fullPathOf, type Tab } from '../lib/tabs';
import type { AccessModel } from '../lib/access';
import { DropdownTrigger } from '../components/DropdownTrigger';

type Action = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

export function TagsView({ access }: { access: AccessModel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = useTabs((s) => s.tabs);
  const titles = useTabs((s) => s.titles);
  const listRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again on purpose when the active tab or the number of tabs changes (the DOM it scrolls into view)
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>('.tag-item.is-active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname, tabs.length]);

  // A page may have named its own tab (useTabTitle); else the route's title.
  const titleOf = (tab: Tab) => titles[tab.key] ?? access.title(tab.name);

  const run = (action: Action, tab: Tab) => {
    const store = useTabs.getState();
    if (action === 'refresh') {
      navigate(`/redirect${fullPathOf(tab.location)}`, { replace: true });
      return;
    }
    if (action === 'close') {
      if (tab.affix) return;
      const index = store.tabs.findIndex((x) => x.key === tab.key);
      store.close(tab.key);
      if (tab.key === pathname) {
        const rest = useTabs.getState().tabs;
        const next = rest[Math.min(index, rest.length) - 1] ?? rest[0];
        navigate(next ? fullPathOf(next.location) : '/', { replace: true });
      }
      return;
    }
    if (action === 'closeOthers') {
      store.closeOthers(tab.key);
      if (tab.key !== pathname) navigate(fullPathOf(tab.location));
      return;
    }
    store.closeAll();
    const rest = useTabs.getState().tabs;
    if (!rest.some((x) => x.key === pathname)) navigate(rest[0] ? fullPathOf(rest[0].location) : '/', { replace: true });
  };

  const menuFor = (tab: Tab): MenuProps => ({
    items: [
      { key: 'refresh', label: <span data-testid="tag-action-refresh">{t('tags.refresh')}</span> },
      { key: 'close', label: <span data-testid="tag-action-close">{t('tags.close')}</span>, disabled: tab.affix },
      { key: 'closeOthers', label: <span data-testid="tag-action-close-others">{t('tags.closeOthers')}</span> },
      { key: 'closeAll', label: <span data-testid="tag-action-close-all">{t('tags.closeAll')}</span> },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run(key as Action, tab);
    },
  });

  const activeTab = tabs.find((x) => x.key === pathname) ?? tabs[0];

  const onKeyDown = (ev: KeyboardEvent<HTMLButtonElement>, tab: Tab, index: number) => {
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('.tag-item');
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
      ev.preventDefault();
      const next = (index + (ev.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length;
      buttons?.[next]?.focus();
    } else if (ev.key === 'Delete' || ev.key === 'Backspace') {
      ev.preventDefault();
      run('close', tab);
    }
  };

  return (
    <div className="tags-view" data-testid="tags-view">
      <div className="tags-list" role="tablist" aria-label={t('tags.label')} ref={listRef}>
        {tabs.map((tab, index) => {
          const active = tab.key === pathname;
          return (
            <Dropdown key={tab.key} trigger={['contextMenu']} menu={menuFor(tab)}>
              <button
                type="button"
                role="tab"
                aria-selected={active}
                tabIndex={active || (index === 0 && !tabs.some((x) => x.key === pathname)) ? 0 : -1}
                className={`tag-item${active ? ' is-active' : ''}`}
                data-testid="tag"
                data-path={tab.key}
                data-affix={tab.affix ? '1' : undefined}
                onClick={() => {
                  if (!active) navigate(fullPathOf(tab.location));
                }}
                onAuxClick={(ev) => {
                  if (ev.button === 1) run('close', tab);
                }}
                onKeyDown={(ev) => onKeyDown(ev, tab, index)}
                aria-keyshortcuts={tab.affix ? undefined : 'Delete Backspace'}
              >
                {active ? <span className="tag-dot" aria-hidden /> : null}
                <span className="tag-title">{titleOf(tab)}</span>
                {!tab.affix ? (
                  // The pointer's close mark: a control cannot sit inside the tab's button, so it is hidden from
                  // assistive technology, which closes the tab with Delete / Backspace (aria-keyshortcuts) or its menu.
                  <span
                    className="tag-close"
                    aria-hidden
                    data-testid="tag-close"
                    onClick={(ev) => {
                      ev.stopPropagation();
                      run('close', tab);
                    }}
                  >
                    <CloseOutlined />
                  </span>
                ) : null}
              </button>
            </Dropdown>
          );
        })}
      </div>
      {activeTab ? (
        <DropdownTrigger menu={menuFor(activeTab)} placement="bottomRight" size="small" className="tags-actions" label={t('tags.more')} icon={<DownOutlined />} testId="tags-actions" />
      ) : null}
    </div>
  );
}
