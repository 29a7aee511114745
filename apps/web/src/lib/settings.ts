/**
 * UI settings (spec §2 settings drawer, §3 stored state): read from localStorage when this module loads,
 * i.e. before the first render, so the saved theme, size and language show at once.
 */
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import { APPEARANCES, type Appearance, DEFAULT_THEME, DEFAULT_UI_SIZE, UI_SIZES, type UiSize } from '@app/contract/constants';
import type { Lang } from '@app/contract/i18n';
import { chooseLang } from './lang';
import { readJson, writeJson } from './storage';

/** Light or dark colours, or whatever the system asks for (prefers-color-scheme, followed live). */
export { APPEARANCES, type Appearance };

export interface Settings {
  lang: Lang;
  size: UiSize;
  /** The primary colour (spec §5); light or dark is `appearance`. */
  theme: string;
  appearance: Appearance;
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
  appearance: 'light',
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
    appearance: (APPEARANCES as readonly unknown[]).includes(saved.appearance) ? (saved.appearance as Appearance) : DEFAULTS.appearance,
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

const DARK_QUERY = '(prefers-color-scheme: dark)';
const systemQuery = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null);
const subscribeSystem = (onChange: () => void) => {
  const q = systemQuery();
  q?.addEventListener('change', onChange);
  return () => q?.removeEventListener('change', onChange);
};
const systemDark = () => systemQuery()?.matches ?? false;

export const isDarkAppearance = (appearance: Appearance, system: boolean) => appearance === 'dark' || (appearance === 'system' && system);

/** Whether the app is dark now: the setting, or for 'system' the system's preference, followed as it changes. */
export function useIsDark(): boolean {
  const appearance = useSettings((s) => s.appearance);
  const system = useSyncExternalStore(subscribeSystem, systemDark, () => false);
  return isDarkAppearance(appearance, system);
}

/** Marks <html> light or dark (plain CSS and the browser's own controls follow it). */
export function applyAppearance(dark: boolean) {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.appearance = dark ? 'dark' : 'light';
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

// Before the first render, so a dark page never flashes light.
applyAppearance(isDarkAppearance(useSettings.getState().appearance, systemDark()));
