import antdTheme from 'antd/es/theme';
import type { ThemeConfig } from 'antd';
import type { UiSize } from '@app/contract/constants';
import { contrast, MIN_CONTRAST, readablePrimary, shiftUntil } from './contrast';
import { applyAppearance } from './settings';

/** A hovered or selected row in the dark theme (lighter than the page, #141414): links there must read too. */
const DARK_HOVER_BG = '#262626';
const SIDER = { light: { bg: '#001529', sub: '#000c17', logo: '#002140' }, dark: { bg: '#141414', sub: '#0a0a0a', logo: '#1f1f1f' } };

const darkSeeds = new Map<string, { seed: string; derived: string }>();
/**
 * A seed colour for the dark theme (`colorLink`, `colorError`): antd's dark algorithm derives a darker colour
 * from it, so the seed is lightened until the derived colour reads at 4.5:1 on a hovered dark row.
 */
function darkSeed(key: 'colorLink' | 'colorError', colour: string): { seed: string; derived: string } {
  const id = `${key}${colour}`;
  let found = darkSeeds.get(id);
  if (!found) {
    const derive = (c: string) => antdTheme.getDesignToken({ token: { [key]: c }, algorithm: antdTheme.darkAlgorithm })[key];
    const seed = shiftUntil(colour, 'white', (c) => contrast(derive(c), DARK_HOVER_BG) >= MIN_CONTRAST + 0.05);
    found = { seed, derived: derive(seed) };
    darkSeeds.set(id, found);
  }
  return found;
}

/** Danger text on white, a grey header or a tinted row: 5.3:1 on white keeps 4.5:1 on those. */
const LIGHT_ERROR = shiftUntil('#ff4d4f', 'black', (c) => contrast(c, '#ffffff') >= 5.3);

/**
 * The class of one theme's CSS variables: appearance, size, colour and, when animations are off, `still`
 * (`app-dark-medium-1677d2`, `app-light-small-1677d2-still`): motion off sets antd's durations to 0.
 */
export const cssVarKey = (primary: string, size: UiSize, dark: boolean, motion = true) =>
  `app-${dark ? 'dark' : 'light'}-${size}-${primary.replace(/[^0-9a-z]/gi, '').toLowerCase()}${motion ? '' : '-still'}`;

/**
 * antd's theme: the chosen colour made readable (lib/contrast.ts), light or dark algorithm, compact for mini,
 * and no animation when `motion` is false (the reader's system prefers reduced motion: no zooming dialogs,
 * sliding menus or collapsing messages). The printed report wraps itself in `themeConfig(colour, size, false)`
 * so it stays light.
 */
export function themeConfig(colour: string, size: UiSize, dark = false, motion = true): ThemeConfig {
  const primary = readablePrimary(colour);
  const base = dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm;
  const link = dark ? darkSeed('colorLink', colour) : { seed: primary, derived: primary };
  const sider = dark ? SIDER.dark : SIDER.light;
  // antd's secondary texts (breadcrumb links, descriptions, hints) at 0.45 alpha miss 4.5:1: 0.6 reaches it.
  const muted = dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.6)';
  const config: ThemeConfig = {
    // antd writes a theme's CSS variables under one class per ConfigProvider and keeps the blocks of
    // themes seen before; two blocks under the same class win by their order in <head>, which after
    // many live switches could leave light values in a dark page (form labels). A class per theme
    // makes a block apply only to its own theme (docs/decisions.md, "Dark mode").
    cssVar: { key: cssVarKey(primary, size, dark, motion) },
    token: {
      motion,
      colorPrimary: primary,
      colorInfo: primary,
      colorLink: link.seed,
      // Primary-coloured text (selected tree nodes, typography links) reads like links.
      ...(dark ? { colorPrimaryText: link.derived, colorPrimaryTextHover: link.derived } : {}),
      colorTextTertiary: muted,
      colorTextDescription: muted,
      colorTextPlaceholder: muted,
      // Danger links and buttons (#ff4d4f, dark #dc4446) reach 4.5:1 as text on the page and on a hovered row.
      colorError: dark ? darkSeed('colorError', '#ff4d4f').seed : LIGHT_ERROR,
      borderRadius: 6,
      fontSize: 14,
    },
    algorithm: size === 'mini' ? [base, antdTheme.compactAlgorithm] : base,
    components: {
      Layout: dark ? { siderBg: sider.bg, headerPadding: '0 16px', headerHeight: 50 } : { siderBg: sider.bg, headerBg: '#ffffff', bodyBg: '#f0f2f5', headerPadding: '0 16px', headerHeight: 50 },
      // The table's empty text ("no records") is drawn in the disabled colour.
      Table: { colorTextDisabled: muted },
      // The unchecked switch's grey track under white text.
      Switch: { colorTextQuaternary: dark ? 'rgba(255, 255, 255, 0.35)' : 'rgba(0, 0, 0, 0.55)', colorTextTertiary: dark ? 'rgba(255, 255, 255, 0.45)' : 'rgba(0, 0, 0, 0.65)' },
      Menu: { darkItemBg: sider.bg, darkSubMenuItemBg: sider.sub, darkItemColor: 'rgba(255, 255, 255, 0.75)' },
    },
  };
  return config;
}

export const PRESET_COLOURS = ['blue', 'purple', 'cyan', 'green', 'magenta', 'pink', 'red', 'orange', 'yellow', 'volcano', 'geekblue', 'lime', 'gold'];
/** Status tags by class (`ant-tag-<class>`) and their antd colour token. */
const STATUSES = { success: 'Success', warning: 'Warning', error: 'Error', processing: 'Info' } as const;
export const TAG_COLOURS = [...PRESET_COLOURS, ...Object.keys(STATUSES)];

/**
 * Text colours antd draws on their own light backgrounds (tags: `<preset>7` on `<preset>1`; status tags and
 * alerts: `color<Status>` on `color<Status>Bg`) pushed away from the background until they reach 4.5:1.
 */
function readableTagColours(config: ThemeConfig, dark: boolean): Record<string, string> {
  const tk = antdTheme.getDesignToken(config) as unknown as Record<string, string>;
  const out: Record<string, string> = {};
  const fix = (fg: string, bg: string, key: string) => {
    out[key] =
      !/^#[0-9a-f]{6}$/i.test(fg) || !/^#[0-9a-f]{6}$/i.test(bg) || contrast(fg, bg) >= MIN_CONTRAST + 0.05
        ? fg
        : shiftUntil(fg, dark ? 'white' : 'black', (c) => contrast(c, bg) >= MIN_CONTRAST + 0.05);
  };
  for (const c of PRESET_COLOURS) fix(tk[`${c}7`]!, tk[`${c}1`]!, c);
  for (const [cls, s] of Object.entries(STATUSES)) fix(tk[`color${s}`]!, tk[`color${s}Bg`]!, cls);
  return out;
}

/**
 * The design tokens hand-written CSS reads (styles.css `--app-*`, light values there as the default), so the
 * shell, login page and feature CSS follow light and dark without antd's scoped CSS variables.
 */
export function applyCssTokens(config: ThemeConfig, dark: boolean) {
  const tk = antdTheme.getDesignToken(config);
  const sider = dark ? SIDER.dark : SIDER.light;
  const vars: Record<string, string> = {
    '--app-primary': tk.colorPrimary,
    '--app-link': tk.colorLink,
    '--app-on-primary': tk.colorTextLightSolid,
    '--app-bg-layout': dark ? '#000000' : '#f0f2f5',
    '--app-bg': tk.colorBgContainer,
    '--app-bg-elevated': tk.colorBgElevated,
    '--app-fill': tk.colorFillQuaternary,
    '--app-fill-2': tk.colorFillSecondary,
    '--app-text': tk.colorText,
    '--app-text-2': tk.colorTextSecondary,
    '--app-border': tk.colorBorderSecondary,
    '--app-border-strong': tk.colorBorder,
    '--app-error': dark ? tk.colorErrorText : tk.colorErrorActive,
    '--app-error-bg': tk.colorErrorBg,
    '--app-error-border': tk.colorErrorBorder,
    '--app-warning-bg': tk.colorWarningBg,
    '--app-success': dark ? tk.colorSuccessText : '#2b7a0b',
    '--app-sider-bg': sider.bg,
    '--app-sider-logo-bg': sider.logo,
  };
  // Tag texts (styles.css "Tags"): antd's own miss 4.5:1 on their tinted backgrounds; the light ones also for .light-scope.
  const lightConfig = dark ? themeConfig(tk.colorPrimary, 'medium', false) : config;
  const tags = readableTagColours(config, dark);
  const lightTags = dark ? readableTagColours(lightConfig, false) : tags;
  for (const c of TAG_COLOURS) {
    vars[`--app-tag-${c}`] = tags[c]!;
    vars[`--app-tag-${c}-light`] = lightTags[c]!;
  }
  const style = document.documentElement.style;
  for (const [k, v] of Object.entries(vars)) style.setProperty(k, v);
  applyAppearance(dark);
}
