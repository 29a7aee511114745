import pg from 'pg';

/**
 * The session cache: a session's access-check row (lib/sessions.ts `resolveSession`: the session, its
 * account, the cache counters) kept in memory by session key, so a signed-in call with a warm session makes
 * no round trip to the database for its access check.
 *
 * It is emptied whenever anything that row holds may have changed: triggers (migration 0014) notify the
 * channel `auth_changed` at the commit of any write to those columns (a session ended or restricted, an
 * account disabled or moved, an institution's term renewed, a role's grants or a parameter changed), and
 * this process listens:
 * - on each pooled connection: PostgreSQL hands a session the notices of its own commits before the commit
 *   returns, so a write made through this process has emptied the cache before the code that made it goes
 *   on (sign out, then the old key answers 999 at once);
 * - on a connection of its own, for writes of other processes (another server, the admin CLI, psql). A
 *   notice reaches it a moment after the commit (under a millisecond on one host): that moment is the only
 *   time another process's change is not yet seen (docs/security.md).
 * While that connection is down the cache is off (every call reads the database) and it starts empty when
 * the connection is back. Entries also expire after `ttlMs`, in case a notice is lost unseen (a silent
 * network cut): the worst a lost notice can do is bounded by that.
 *
 * Only good rows are cached, and only when nothing was flushed while they were read (the epoch), so a read
 * that raced a change is never kept. What the cache answers is checked by the caller like a fresh row
 * (expiry, idle time); when that check would write (a touch, an expired row), the caller reads the
 * database instead: no decision to end a session is taken from memory.
 */
export const AUTH_CHANNEL = 'auth_changed';
/** The application_name of the listening connection (pg_stat_activity shows it). */
export const AUTH_LISTENER = 'auth-listener';

/** The cache of each open database (db/client.ts `openPostgres` sets it); a database without one is read every time. */
const caches = new WeakMap<object, NotifiedCache<unknown>>();
export const sessionCacheOf = <T>(db: object): NotifiedCache<T> | undefined => caches.get(db) as NotifiedCache<T> | undefined;
export const setSessionCache = (db: object, cache: NotifiedCache<unknown>) => caches.set(db, cache);

/**
 * Values kept in memory until a channel's notice says what they were read from may have changed: the
 * session cache (above) and the list count cache (db/count-cache.ts). Off, and empty, while its listener is
 * not connected; entries also expire after `ttlMs`; `stamp`/`set` keep a read that raced a flush out.
 */
export class NotifiedCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private epoch = 0;
  private live = false;

  constructor(
    readonly ttlMs = 5_000,
    readonly maxEntries = 10_000,
  ) {}

  /** Whether the cache is in use (its listener connected). */
  get enabled() {
    return this.live;
  }

  get size() {
    return this.entries.size;
  }

  /** Taken before a read; `set` keeps the row only if no flush happened since. */
  stamp(): number {
    return this.epoch;
  }

  get(key: string, now = Date.now()): T | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, stamp: number, now = Date.now()): void {
    if (!this.live || stamp !== this.epoch) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // The oldest first (a Map keeps insertion order).
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, at: now });
  }

  flush(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** The transactions whose notice was heard already (each reaches every listening connection). */
  private readonly heard = new Set<string>();

  /** A notice of `auth_changed` (its payload: the writing transaction's id): flushes at its first arrival. */
  notice(payload: string): void {
    if (payload !== '') {
      if (this.heard.has(payload)) return;
      this.heard.add(payload);
      if (this.heard.size > 1_000) this.heard.delete(this.heard.values().next().value as string);
    }
    this.flush();
  }

  /** On when the listener has subscribed, off when it is lost; empty either way. */
  setLive(live: boolean): void {
    this.flush();
    this.live = live;
  }
}

export interface AuthWatch {
  /** Resolves once the listener has subscribed (or failed its first try: then it keeps retrying). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

type Flushable = { notice(payload: string): void; setLive(live: boolean): void };

/** The caches a process keeps, by the channel whose notices empty them (session rows, list counts). */
export type Channels = Record<string, Flushable>;

const listenAll = (client: pg.ClientBase, channels: Channels) =>
  client.query(
    Object.keys(channels)
      .map((c) => `LISTEN ${c};`)
      .join(' '),
  );
const eachCache = (channels: Channels, f: (cache: Flushable) => void) => {
  for (const cache of Object.values(channels)) f(cache);
};

/**
 * The pool's `onConnect` hook (awaited before a new connection serves its first query): the connection
 * listens on every channel, so the notices of this process's own commits flush their cache before the
 * commit returns.
 */
export const listenOnConnect = (channels: Channels) => async (client: pg.ClientBase) => {
  client.on('notification', noticeHandler(channels));
  await listenAll(client, channels);
};

/** A connection's notification listener: a notice goes to its channel's cache. */
const noticeHandler = (channels: Channels) => (msg: pg.Notification) => {
  if (Object.hasOwn(channels, msg.channel)) channels[msg.channel]!.notice(msg.payload ?? '');
};

/**
 * Listens on every channel for its cache on a connection of its own to `connectionString` (reconnected
 * after `retryMs` when lost): the writes of other processes. While it is lost every cache is off.
 */
export function watchChanges(connectionString: string, channels: Channels, opts: { retryMs?: number; onError?: (err: Error) => void } = {}): AuthWatch {
  const retryMs = opts.retryMs ?? 1_000;
  const onNotice = noticeHandler(channels);
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, keepAlive: true, application_name: AUTH_LISTENER });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      const wasLive = current === client;
      if (wasLive) current = undefined;
      eachCache(channels, (cache) => cache.setLive(false));
      // Said once when a working listener is lost, not at every retry while the database is away.
      if (err && wasLive && !stopped) opts.onError?.(err);
      client.end().catch(() => {});
      retry();
    };
    client.on('notification', onNotice);
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await listenAll(client, channels);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    eachCache(channels, (cache) => cache.setLive(true));
  };

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      eachCache(channels, (cache) => cache.setLive(false));
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}
