import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from './api';
import { BOOT_MS, endEarly, newLoadForTest, pageShown, withoutKey } from './early';
import { EARLY_MAX_CALLS, EARLY_STORE, type EarlyCalls, type EarlyConfig, type EarlyWindow, startEarlyCalls } from './early-start';
import { useSession } from './session';
import { runSessionReset } from './session-reset';
import { STORAGE_PREFIX } from './storage-keys';

const CONFIG: EarlyConfig = { cookie: 'Admin-Token', storageKey: STORAGE_PREFIX + EARLY_STORE, apiBase: '/adminapi', maxCalls: EARLY_MAX_CALLS };
const PAGE = '/dashboard/index';

/** localStorage as a map. */
function storage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, String(v)),
    removeItem: (k: string) => void items.delete(k),
  };
}

/** The network: each call answers OK with the address it was sent to; `sent` lists them with their language. */
function network(code = 200) {
  const sent: { url: string; lang: string }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, lang: (init.headers as Record<string, string>)['Accept-Language'] ?? '' });
    return new Response(JSON.stringify({ code, datas: { list: [url], total: 1 } }), { headers: { 'content-type': 'application/json' } });
  });
  return { sent, fetch };
}

/** A browser window as the inline script sees it, on `PAGE`, signed in with `token`. */
function browser(token: string | null, store: ReturnType<typeof storage>, fetch: EarlyWindow['fetch'], search = ''): EarlyWindow {
  return { document: { cookie: token ? `lang=en; Admin-Token=${encodeURIComponent(token)}; x=1` : 'lang=en' }, localStorage: store, location: { pathname: PAGE, search }, fetch };
}

/** Runs the inline script as the page would, and leaves its answers where lib/early.ts looks. */
function pageLoad(w: EarlyWindow) {
  startEarlyCalls(w, CONFIG);
  vi.stubGlobal('__early', w.__early);
  return w.__early;
}

let store: ReturnType<typeof storage>;
beforeEach(() => {
  store = storage();
  vi.stubGlobal('localStorage', store);
  newLoadForTest(PAGE);
  useSession.setState({ token: 'k1', isAdmin: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useSession.setState({ token: null });
  runSessionReset();
});

describe('the inline script (early-start)', () => {
  it('sends nothing without a session cookie, or without a record for this page', () => {
    const { fetch, sent } = network();
    store.setItem(CONFIG.storageKey, JSON.stringify({ [PAGE]: { lang: 'en', urls: ['/adminapi/member/get_member?key=&api_path=%2Fmember%2Fget_member'] } }));
    expect(pageLoad(browser(null, store, fetch))).toBeUndefined();
    expect(pageLoad(browser('k9', store, fetch, '?page=2'))).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it("sends the page's recorded calls with the cookie's key in the key's place, in the recorded language; only API calls, at most four", () => {
    const { fetch, sent } = network();
    const urls = [
      '/adminapi/member/get_member?key=&api_path=%2Fmember%2Fget_member',
      'https://elsewhere.example/steal?key=',
      '/adminapi/equipment/list?page=1&limit=20&key=&api_path=%2Fequipment%2Flist',
      '/adminapi/a?key=',
      '/adminapi/b?key=',
      '/adminapi/c?key=',
    ];
    store.setItem(CONFIG.storageKey, JSON.stringify({ [PAGE]: { lang: 'ja', urls } }));
    const early = pageLoad(browser('k 9+/', store, fetch));
    expect(sent).toEqual([
      { url: '/adminapi/member/get_member?key=k+9%2B%2F&api_path=%2Fmember%2Fget_member', lang: 'ja' },
      { url: '/adminapi/equipment/list?page=1&limit=20&key=k+9%2B%2F&api_path=%2Fequipment%2Flist', lang: 'ja' },
      { url: '/adminapi/a?key=k+9%2B%2F', lang: 'ja' },
    ]);
    expect(Object.keys(early!.calls)).toEqual(sent.map((s) => `ja ${s.url}`));
  });

  it('a store it cannot read sends nothing and throws nothing', () => {
    const { fetch, sent } = network();
    for (const bad of ['{', '[]', 'null', JSON.stringify({ [PAGE]: { lang: 1, urls: 'x' } }), JSON.stringify({ [PAGE]: { lang: 'en', urls: [1, null] } })]) {
      store.setItem(CONFIG.storageKey, bad);
      expect(() => startEarlyCalls(browser('k1', store, fetch), CONFIG)).not.toThrow();
    }
    expect(sent).toEqual([]);
  });
});

describe('early calls, recorded and taken (early)', () => {
  it('a load records its first GET calls with the key left empty; the next load sends them early and the app takes those answers', async () => {
    const first = network();
    vi.stubGlobal('fetch', first.fetch);
    await call('auth.memberInfo', {});
    await call('equipment.list', { page: 1, limit: 20 });
    const record = JSON.parse(store.getItem(CONFIG.storageKey)!)[PAGE];
    expect(record.urls).toEqual(first.sent.map((s) => withoutKey(s.url)));
    expect(record.urls[1]).toMatch(/^\/adminapi\/equipment\/list\?page=1&limit=20&key=&api_path=/);

    // The next load: the inline script sends both; the app's calls take them and send nothing more.
    newLoadForTest(PAGE);
    const early = network();
    pageLoad(browser('k1', store, early.fetch));
    expect(early.sent.map((s) => s.url)).toEqual(first.sent.map((s) => s.url));
    const app = network();
    vi.stubGlobal('fetch', app.fetch);
    expect(await call('equipment.list', { page: 1, limit: 20 })).toEqual({ list: [first.sent[1]!.url], total: 1 });
    expect(await call('auth.memberInfo', {})).toEqual({ list: [first.sent[0]!.url], total: 1 });
    expect(app.sent).toEqual([]);
    // Taken once: the same call again goes to the server.
    await call('equipment.list', { page: 1, limit: 20 });
    expect(app.sent).toHaveLength(1);
  });

  it('not taken for another input or language, after the first click or key, or after the first moments', async () => {
    store.setItem(CONFIG.storageKey, JSON.stringify({ [PAGE]: { lang: 'zh', urls: ['/adminapi/equipment/list?page=1&limit=20&key=&api_path=%2Fequipment%2Flist'] } }));
    const app = network();
    vi.stubGlobal('fetch', app.fetch);

    pageLoad(browser('k1', store, network().fetch));
    await call('equipment.list', { page: 1, limit: 20 }); // the app is in English: the early answer is not it
    await call('equipment.list', { page: 2, limit: 20 });
    expect(app.sent).toHaveLength(2);

    store.setItem(CONFIG.storageKey, JSON.stringify({ [PAGE]: { lang: 'en', urls: ['/adminapi/equipment/list?page=1&limit=20&key=&api_path=%2Fequipment%2Flist'] } }));
    newLoadForTest(PAGE);
    pageLoad(browser('k1', store, network().fetch));
    endEarly();
    await call('equipment.list', { page: 1, limit: 20 });
    expect(app.sent).toHaveLength(3);

    newLoadForTest(PAGE);
    pageLoad(browser('k1', store, network().fetch));
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + BOOT_MS + 1);
    await call('equipment.list', { page: 1, limit: 20 });
    expect(app.sent).toHaveLength(4);
  });

  it('an early call that failed on the way is asked again; a refused answer is not recorded', async () => {
    store.setItem(CONFIG.storageKey, JSON.stringify({ [PAGE]: { lang: 'en', urls: ['/adminapi/equipment/list?page=1&limit=20&key=&api_path=%2Fequipment%2Flist'] } }));
    const early = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    pageLoad(browser('k1', store, early));
    const app = network();
    vi.stubGlobal('fetch', app.fetch);
    expect(await call('equipment.list', { page: 1, limit: 20 })).toEqual({ list: [app.sent[0]!.url], total: 1 });
    expect(early).toHaveBeenCalledTimes(1);

    newLoadForTest('/other');
    vi.stubGlobal('fetch', network(400).fetch);
    await expect(call('equipment.list', { page: 1, limit: 20 }, { silent: true })).rejects.toThrow();
    expect(JSON.parse(store.getItem(CONFIG.storageKey)!)['/other']).toBeUndefined();
  });

  it('a navigation after the user acted opens a window of its own, a redirect in it records under both addresses; only a page load takes early answers', async () => {
    const first = network();
    vi.stubGlobal('fetch', first.fetch);
    const records = () => JSON.parse(store.getItem(CONFIG.storageKey)!) as Record<string, { urls: string[] }>;
    endEarly(); // "sign in" clicked on the login page
    await call('equipment.list', { page: 9, limit: 20 });
    expect(store.getItem(CONFIG.storageKey)).toBeNull();
    pageShown('/');
    await call('auth.memberInfo', {});
    pageShown(PAGE); // `/` sends the user on to the landing page: no click in between
    await call('equipment.list', { page: 1, limit: 20 });
    expect(records()['/']!.urls).toEqual(first.sent.slice(1).map((s) => withoutKey(s.url)));
    expect(records()[PAGE]).toEqual(records()['/']);

    endEarly(); // a menu entry clicked
    pageShown('/finance/index');
    await call('equipment.list', { page: 2, limit: 20 });
    expect(records()['/finance/index']!.urls).toEqual([withoutKey(first.sent[3]!.url)]);
    expect(records()[PAGE]!.urls).toHaveLength(2);

    // Within a navigation's window (not a page load's), the inline script's answers are not taken.
    pageLoad(browser('k1', store, network().fetch));
    const app = network();
    vi.stubGlobal('fetch', app.fetch);
    await call('equipment.list', { page: 2, limit: 20 });
    expect(app.sent).toHaveLength(1);
  });

  it('another identity drops the record and the answers in flight', async () => {
    vi.stubGlobal('fetch', network().fetch);
    await call('equipment.list', { page: 1, limit: 20 });
    expect(store.getItem(CONFIG.storageKey)).not.toBeNull();
    const early: EarlyCalls | undefined = pageLoad(browser('k1', store, network().fetch));
    expect(Object.keys(early!.calls)).toHaveLength(1);
    runSessionReset();
    expect(store.getItem(CONFIG.storageKey)).toBeNull();
    expect(early!.calls).toEqual({});
  });
});
