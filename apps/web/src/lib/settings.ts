/**
 * UI settings (spec §2 settings drawer, §3 stored state): read from localStorage when this module loads,
 * i.e. before the first render, so the saved theme, size and language show at once.
 */
import { create } from 'zustand';
import { DEFAULT_THEME, DEFAULT_UI_SIZE, UI_SIZES, type UiSize } from '@app/contract/constants';
import type { Lang } from '@app/contract/i18n';
import { chooseLang } from './lang';
import { readJson, writeJson } from './storage';

export interface Settings {
  lang: Lang;
  size: UiSize;
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  pinyinSearch: boolean;
  /** Sidebar expanded (desktop). */
  sidebarOpened: boolean;
}

const DEFAULTS: Omit<Settings, 'lang'> = {
  size: DEFAULT_UI_SIZE,
  theme: DEFAULT_THEME,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  pinyinSearch: true,
  sidebarOpened: true,
};

const isHexColour = (v: unknown): v is string => typeof v === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v);
const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);

function load(): Settings {
  const saved = readJson<Partial<Record<keyof Settings, unknown>>>('settings', {});
  const browser = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : undefined;
  return {
    lang: chooseLang(readJson<unknown>('lang', null), browser),
    size: (UI_SIZES as readonly unknown[]).includes(saved.size) ? (saved.size as UiSize) : DEFAULTS.size,
    theme: isHexColour(saved.theme) ? saved.theme : DEFAULTS.theme,
    tagsView: bool(saved.tagsView, DEFAULTS.tagsView),
    fixedHeader: bool(saved.fixedHeader, DEFAULTS.fixedHeader),
    sidebarLogo: bool(saved.sidebarLogo, DEFAULTS.sidebarLogo),
    pinyinSearch: bool(saved.pinyinSearch, DEFAULTS.pinyinSearch),
    sidebarOpened: bool(readJson<unknown>('sidebarStatus', true), true),
  };
}

interface SettingsActions {
  /** Changes one setting. A theme value that is not a colour string is ignored (spec §5). */
  set: <K extends Exclude<keyof Settings, 'lang'>>(key: K, value: Settings[K]) => void;
  setLangValue: (lang: Lang) => void;
  toggleSidebar: () => void;
  reset: () => void;
}

export const useSettings = create<Settings & SettingsActions>()((set, get) => ({
  ...load(),
  set: (key, value) => {
    if (key === 'theme' && !isHexColour(value)) return;
    set({ [key]: value } as Partial<Settings>);
    persist(get());
  },
  setLangValue: (lang) => {
    set({ lang });
    writeJson('lang', lang);
  },
  toggleSidebar: () => {
    set({ sidebarOpened: !get().sidebarOpened });
    persist(get());
  },
  reset: () => {
    set({ ...DEFAULTS, sidebarOpened: get().sidebarOpened });
    persist(get());
  },
}));

function persist(s: Settings) {
  const { lang: _lang, sidebarOpened, ...rest } = s;
  writeJson('settings', rest);
  writeJson('sidebarStatus', sidebarOpened);
}

export { isHexColour };
