/**
 * Early calls (lib/early-start.ts sends them from the page's inline script). This side
 * - records, for each address, the GET calls the app sends when it shows that address: on a page load,
 *   and after a navigation inside the app (signing in leads to the home page that way), so that the next
 *   load of that address, a reload, a bookmark, the first visit after a release, can send them at once;
 * - hands the answers the inline script fetched to the calls that ask for exactly the same address in the
 *   same language (lib/api/client.ts), during the page load's first moments only.
 *
 * "First moments" (a window): from the page load, or from a navigation, until the user's next click or
 * key, and at most BOOT_MS. A redirect without the user in between (`/` to the landing page) stays in the
 * same window: both addresses get its calls. What the app asks after the user acted may depend on what
 * the user did: it is neither recorded nor answered early. Another identity (login, logout, view as
 * role) drops the records and the answers.
 */
import { API_BASE } from '@app/contract/constants';
import { EARLY_MAX_CALLS as MAX_CALLS, EARLY_STORE as STORE, type EarlyCalls, type EarlyEntry } from './early-start';
import { onSessionReset } from './session-reset';
import { readJson, removeKey, writeJson } from './storage';

/** How long after a load or a navigation its calls are still its first ones. */
export const BOOT_MS = 10_000;
/** At most this many addresses are remembered (and MAX_CALLS calls each). */
const MAX_PAGES = 8;

interface EarlyState {
  /** The addresses the current window has shown (more than one after a redirect). */
  pages: string[];
  /** The window's calls so far (each address's record is replaced by these), and their language. */
  recorded: string[];
  lang: string;
  /** When the window opened, on `performance.now()`'s clock (0: the page load's start). */
  since: number;
  /** Until the user's next click or key. */
  open: boolean;
  /** The page load's window: only it takes the inline script's answers. */
  load: boolean;
}

// The address is read as this module loads (with the boot code, before the router may move it).
const state: EarlyState = { pages: [typeof location === 'undefined' ? '' : location.pathname + location.search], recorded: [], lang: '', since: 0, open: true, load: true };
const early = (): EarlyCalls | undefined => (globalThis as { __early?: EarlyCalls }).__early;
const inWindow = () => state.open && performance.now() - state.since <= BOOT_MS;

/** Closes the window: nothing more is recorded, and answers not taken yet are dropped. */
function close() {
  state.open = false;
  state.load = false;
  const calls = early();
  if (calls) calls.calls = {};
}

if (typeof document !== 'undefined') {
  // The user's click or key ends the window: what the app asks next may depend on it.
  for (const type of ['pointerdown', 'keydown'] as const) document.addEventListener(type, close, { capture: true });
}

/**
 * The app shows this address (app/router.tsx, at every change of path or query). Within an open window
 * (a redirect), one more address of that window; after the user acted, a new window.
 */
export function pageShown(page: string) {
  if (state.pages.includes(page)) return;
  if (inWindow()) {
    state.pages.push(page);
    if (state.recorded.length) save();
    return;
  }
  Object.assign(state, { pages: [page], recorded: [], since: performance.now(), open: true, load: false });
}

/** The answer the inline script fetched for this address and language, once; undefined if none. */
export function takeEarly(url: string, lang: string): Promise<Response> | undefined {
  const calls = early();
  if (!calls || !state.load || !inWindow()) return undefined;
  const key = `${lang} ${url}`;
  const answer = calls.calls[key];
  delete calls.calls[key];
  return answer;
}

/** The address with the session key left empty (the inline script puts the key of the day back). */
export function withoutKey(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  const query = new URLSearchParams(url.slice(at + 1));
  if (!query.get('key')) return undefined;
  query.set('key', '');
  return `${url.slice(0, at)}?${query}`;
}

/** Notes a GET call that answered OK within a window: the next load of the window's addresses sends it early. */
export function recordEarly(url: string, lang: string): void {
  if (!inWindow()) return;
  const template = withoutKey(url);
  if (!template?.startsWith(`${API_BASE}/`) || state.recorded.includes(template) || state.recorded.length >= MAX_CALLS) return;
  state.recorded.push(template);
  state.lang = lang;
  save();
}

function save() {
  const stored = readJson<Record<string, EarlyEntry>>(STORE, {});
  const others = Object.entries(stored && typeof stored === 'object' ? stored : {}).filter(([page]) => !state.pages.includes(page));
  const mine = state.pages.map((page) => [page, { lang: state.lang, urls: state.recorded }] as const);
  writeJson(STORE, Object.fromEntries([...others.slice(-Math.max(0, MAX_PAGES - mine.length)), ...mine]));
}

/** Test hook: a page load at `page`, starting now. */
export function newLoadForTest(page: string) {
  Object.assign(state, { pages: [page], recorded: [], since: performance.now(), open: true, load: true });
}

/** Closes the window (the user's click or key does it in a browser). */
export const endEarly = close;

onSessionReset(() => {
  removeKey(STORE);
  state.recorded = [];
  close();
});
