export const API_BASE = '/adminapi';
export const REQUEST_TIMEOUT_MS = 10_000;
export const MOBILE_BREAKPOINT = 992;
export const SIDEBAR_WIDTH = 210;
export const TOKEN_COOKIE = 'Admin-Token';
export const MENU_SEARCH_THRESHOLD = 0.4;
export const CLIENT_MIN_PASSWORD = 3;
export const ADMIN_FLAG = 1;
export const DEFAULT_THEME = '#1890ff';
export const THEME_PRESETS = ['#6959CD', '#1890ff', '#13c2c2', '#52c41a', '#faad14', '#f5222d', '#eb2f96', '#304156'] as const;
export const UI_SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type UiSize = (typeof UI_SIZES)[number];
/** Light, dark, or whatever the device prefers (the settings drawer). */
export const APPEARANCES = ['light', 'dark', 'system'] as const;
export type Appearance = (typeof APPEARANCES)[number];
/**
 * Preferences the web app copies into cookies (app/providers.tsx) so the server paints the page before any
 * script in the reader's language and appearance (apps/server/src/http/web.ts). Nothing secret.
 */
export const LANG_COOKIE = 'bioadmin-lang';
export const APPEARANCE_COOKIE = 'bioadmin-appearance';
export const DEFAULT_UI_SIZE: UiSize = 'medium';
/** A device is "expiring" when it expires within this many days (system parameter default). */
export const EXPIRING_DAYS = 30;
/** List totals are counted exactly up to this many rows; past it the total is reported as capped. */
export const COUNT_CAP = 10_000;
export const MAX_PAGE_SIZE = 200;

export const Code = { OK: 200, BAD_REQUEST: 400, OVERDUE: 998, EXPIRED: 999 } as const;
export type Code = (typeof Code)[keyof typeof Code];

export type Grade = 0 | 1 | 2 | 3;
/** The payload field that carries a non-admin caller's institution id, named with the grade suffix. */
export const institutionIdField = (grade: number) => `institution_id_${grade}`;
export const INSTITUTION_ID_FIELD_RE = /^institution_id_(\d+)$/;
