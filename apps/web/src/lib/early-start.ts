/**
 * The page's only inline script (apps/web/vite.config.ts firstPaint puts it in index.html's head; the
 * server allows it by its hash, apps/server/src/http/security.ts): on a signed-in page load it sends the
 * GET calls this page's last load sent first (lib/early.ts records them), while the HTML is still being
 * parsed, instead of after the boot code has downloaded and run. On a slow line that is seconds sooner:
 * the answers are in when the code starts, and lib/early.ts hands them to the calls that ask for them.
 *
 * It runs as the text of this function (`Function.prototype.toString`): it may use nothing from outside
 * its body, and it must never throw (a page with a broken store still loads, without early calls).
 */
/** The store's name under the app's storage prefix (lib/storage-keys.ts). */
export const EARLY_STORE = 'early';
/** At most this many calls are recorded (lib/early.ts) and sent (below) per address. */
export const EARLY_MAX_CALLS = 4;

export interface EarlyConfig {
  /** The session's cookie (the key of every call). */
  cookie: string;
  /** Where lib/early.ts keeps the recorded calls (localStorage). */
  storageKey: string;
  /** Only calls under this prefix are sent. */
  apiBase: string;
  /** EARLY_MAX_CALLS (the script cannot read a constant of this module). */
  maxCalls: number;
}

/** The recorded calls of one page: the language they were sent in, and their addresses with `key=` empty. */
export interface EarlyEntry {
  lang: string;
  urls: string[];
}

/** What the page keeps for lib/early.ts: answers in flight by `${lang} ${url}`. */
export interface EarlyCalls {
  calls: Record<string, Promise<Response>>;
}

export interface EarlyWindow {
  document: { cookie: string };
  localStorage: { getItem(key: string): string | null };
  location: { pathname: string; search: string };
  fetch(url: string, init: RequestInit): Promise<Response>;
  __early?: EarlyCalls;
}

export function startEarlyCalls(w: EarlyWindow, c: EarlyConfig): void {
  try {
    const cookie = `; ${w.document.cookie}`.split(`; ${c.cookie}=`)[1];
    const token = cookie ? decodeURIComponent(cookie.split(';')[0] ?? '') : '';
    if (!token) return;
    const store = JSON.parse(w.localStorage.getItem(c.storageKey) || '{}') as Record<string, EarlyEntry | undefined>;
    const entry = store[w.location.pathname + w.location.search];
    if (!entry || typeof entry.lang !== 'string' || !Array.isArray(entry.urls)) return;
    const calls: Record<string, Promise<Response>> = {};
    for (const recorded of entry.urls.slice(0, c.maxCalls)) {
      if (typeof recorded !== 'string' || recorded.indexOf(`${c.apiBase}/`) !== 0) continue;
      const at = recorded.indexOf('?');
      if (at < 0) continue;
      const query = new URLSearchParams(recorded.slice(at + 1));
      query.set('key', token);
      const url = `${recorded.slice(0, at)}?${query}`;
      const answer = w.fetch(url, { headers: { 'Accept-Language': entry.lang, Accept: 'application/json' }, credentials: 'same-origin' });
      // Taken by lib/early.ts, or dropped: an unhandled rejection would only be noise in the console.
      answer.catch(() => undefined);
      calls[`${entry.lang} ${url}`] = answer;
    }
    w.__early = { calls };
  } catch {
    // A store written by another version, a blocked storage: no early calls, the page asks as usual.
  }
}
