/**
 * Menu search (spec §2, ui.md): fuse.js over the permitted pages, threshold 0.4, keys title, pinyin
 * of the title and path. pinyin-pro is loaded (dynamic import) only in Chinese with the setting on.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import Tooltip from 'antd/es/tooltip';
import type { RefSelectProps } from 'antd';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type Fuse from 'fuse.js';
import { MENU_SEARCH_THRESHOLD } from '@app/contract/constants';
import type { AccessModel } from '../lib/access';
import { useSettings } from '../lib/settings';
import { routeChain } from './route-match';

interface SearchItem {
  path: string;
  title: string;
  pinyin: string[];
}

type PinyinFn = (text: string) => string[];
let pinyinLoader: Promise<PinyinFn> | null = null;
function loadPinyin(): Promise<PinyinFn> {
  pinyinLoader ??= import('pinyin-pro').then(({ pinyin }) => (text: string) => {
    const syllables = pinyin(text, { toneType: 'none', type: 'array', nonZh: 'consecutive' });
    return [syllables.join(''), syllables.join(' '), syllables.map((s) => s[0] ?? '').join('')];
  });
  return pinyinLoader;
}

export function MenuSearch({ access }: { access: AccessModel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lang = useSettings((s) => s.lang);
  const pinyinOn = useSettings((s) => s.pinyinSearch) && lang === 'zh';
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [pinyinFn, setPinyinFn] = useState<PinyinFn | null>(null);
  const selectRef = useRef<RefSelectProps>(null);

  useEffect(() => {
    if (!pinyinOn || !open) return;
    let alive = true;
    void loadPinyin().then((fn) => {
      if (alive) setPinyinFn(() => fn);
    });
    return () => {
      alive = false;
    };
  }, [pinyinOn, open]);

  const items = useMemo<SearchItem[]>(
    () =>
      access.pages
        .filter((p) => !p.hidden && !p.path.includes(':'))
        .map((p) => {
          const chain = routeChain(p.name).map((r) => access.title(r.name));
          const title = chain.filter((x, i) => x !== chain[i - 1]).join(' > ');
          return { path: p.path, title, pinyin: pinyinOn && pinyinFn ? pinyinFn(title.replace(/ > /g, '')) : [] };
        }),
    [access, pinyinOn, pinyinFn],
  );

  // fuse.js loads the first time the search opens.
  const [FuseClass, setFuseClass] = useState<typeof Fuse | null>(null);
  useEffect(() => {
    if (!open || FuseClass) return;
    void import('fuse.js').then((m) => setFuseClass(() => m.default));
  }, [open, FuseClass]);

  const fuse = useMemo(
    () =>
      FuseClass &&
      new FuseClass(items, {
        threshold: MENU_SEARCH_THRESHOLD,
        ignoreLocation: true,
        minMatchCharLength: 1,
        keys: [
          { name: 'title', weight: 0.7 },
          { name: 'pinyin', weight: 0.3 },
          { name: 'path', weight: 0.3 },
        ],
      }),
    [items, FuseClass],
  );

  const results =
    query.trim() && fuse
      ? fuse
          .search(query.trim())
          .slice(0, 20)
          .map((r) => r.item)
      : [];

  return (
    <div className={`menu-search${open ? ' is-open' : ''}`} data-testid="menu-search">
      <Tooltip title={t('nav.search')}>
        <Button type="text" aria-label={t('nav.search')} icon={<SearchOutlined />} onClick={() => setOpen((v) => !v)} data-testid="menu-search-toggle" />
      </Tooltip>
      {open ? (
        <Select
          ref={selectRef}
          className="menu-search-select"
          aria-label={t('nav.search')}
          showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
          placeholder={t('nav.searchPlaceholder')}
          value={null}
          options={results.map((r) => ({ value: r.path, label: r.title }))}
          notFoundContent={query.trim() ? t('nav.searchEmpty') : null}
          onSelect={(path) => {
            if (path) navigate(path);
            setQuery('');
            setOpen(false);
          }}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
          defaultOpen
          autoFocus
          popupMatchSelectWidth={280}
          data-testid="menu-search-input"
        />
      ) : null}
    </div>
  );
}
