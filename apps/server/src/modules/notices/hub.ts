import type { ServerResponse } from 'node:http';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Lang, MAX_STREAMS_PER_SESSION, STREAM_HEARTBEAT_MS } from '@app/contract';
import type { Db } from '../../db/client';
import { notices, sessions } from '../../db/schema';
import { readParams } from '../../lib/params';
import { isLive } from '../../lib/sessions';
import { readerKey, type StoredNotice, toNoticeRow } from './rows';

/*
 * The live notices of one server process (trust-api.md: on every open page of its readers within 2 s,
 * across processes). Each process holds ONE connection listening on the channel `notice_added` (migration
 * 0022: notified at the commit of any insert into notices, by whichever process or tool wrote it). At each
 * notice it reads the rows after the last id it has read (its watermark) and hands each to the open streams
 * of its reader. Ids are given out in commit order (modules/notices/raise.ts), so "the rows after the
 * watermark" loses none, and a stream that resumes after an id (Last-Event-ID) gets exactly the rows it
 * missed: those of its reader after that id, sent before any live row (live rows wait meanwhile).
 *
 * A comment goes to every stream every 25 s (one timer for all of them), and with it a check that their
 * sessions still exist: a stream of an ended session gets `event: closed` and is closed. At most
 * MAX_STREAMS_PER_SESSION streams per session: a further one closes the oldest (`event: closed`, reason
 * `too_many_streams`, after which the web app polls instead of reconnecting). While the listening
 * connection is lost it is retried every second, and the rows written meanwhile are read once it is back;
 * a read every 10 s catches a notice that was lost unseen.
 */

/** The application_name of the listening connection (pg_stat_activity shows it). */
export const NOTICE_LISTENER = 'notice-listener';
export const NOTICE_CHANNEL = 'notice_added';
/** Rows read per round, and at most this many missed rows sent to a resuming stream. */
const BATCH = 500;
/** A stream whose client reads slower than this much is behind is closed (it reconnects and resumes). */
const MAX_BUFFERED = 256 * 1024;
const SAFETY_READ_MS = 10_000;

interface Stream {
  seq: number;
  sessionId: number;
  reader: string;
  lang: Lang;
  raw: ServerResponse;
  /** The last notice id sent (or known to the client). */
  lastId: number;
  /** Live rows that arrived while its missed rows were being read. */
  waiting: StoredNotice[] | null;
  closed: boolean;
}

export interface OpenStream {
  sessionId: number;
  reader: { kind: 'admin' | 'institution'; id: number };
  lang: Lang;
  raw: ServerResponse;
  headers: Record<string, string | number | string[] | undefined>;
  /** Last-Event-ID: resume after it. */
  after: number | null;
}

const poolOf = (db: Db) => (db as unknown as { $client: pg.Pool }).$client;

export class NoticeHub {
  private readonly byReader = new Map<string, Set<Stream>>();
  private readonly bySession = new Map<number, Stream[]>();
  private watermark = 0;
  private seq = 0;
  private listener: pg.Client | undefined;
  private starting: Promise<void> | undefined;
  private stopped = false;
  private reading = false;
  private readAgain = false;
  private timers: NodeJS.Timeout[] = [];
  /** Notices handed to streams, and rounds of reading (the bench and tests read them). */
  readonly counters = { sent: 0, rounds: 0 };

  constructor(private readonly db: Db) {}

  get open(): number {
    let n = 0;
    for (const list of this.bySession.values()) n += list.length;
    return n;
  }

  /** Connects the listener (once) and reads the current watermark. */
  start(): Promise<void> {
    this.starting ??= this.connect(true).then(
      () => {
        const beat = setInterval(() => void this.heartbeat(), STREAM_HEARTBEAT_MS);
        const safety = setInterval(() => this.poke(), SAFETY_READ_MS);
        beat.unref();
        safety.unref();
        this.timers.push(beat, safety);
      },
      (err: unknown) => {
        // Not listening: the next stream tries again.
        this.starting = undefined;
        throw err;
      },
    );
    return this.starting;
  }

  /** Whether the watermark has been read (the rows before it are not announced live). */
  private known = false;

  private async connect(first: boolean): Promise<void> {
    const options = poolOf(this.db).options;
    const client = new pg.Client({
      connectionString: options.connectionString,
      host: options.host,
      port: options.port,
      user: options.user,
      password: options.password as string | undefined,
      database: options.database,
      keepAlive: true,
      application_name: NOTICE_LISTENER,
    });
    let lost = false;
    let retry = !first;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => {});
      if (this.stopped || !retry) return;
      const timer = setTimeout(() => {
        this.connect(false).catch(() => {});
      }, 1_000);
      timer.unref();
    };
    client.on('notification', () => this.poke());
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTICE_CHANNEL}`);
      if (!this.known) {
        // Listening first, then the watermark: a notice committed in between is read at its notice.
        const [row] = await this.db.select({ max: sql<number>`coalesce(max(${notices.id}), 0)::float8` }).from(notices);
        this.watermark = Number(row?.max ?? 0);
        this.known = true;
      }
    } catch (err) {
      onLost();
      if (first) throw err;
      return;
    }
    retry = true;
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    // Back after a loss: read what was written meanwhile.
    if (!first) this.poke();
  }

  /** A notice arrived (or may have): read the new rows, once at a time. */
  poke(): void {
    if (this.stopped || !this.starting) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    void this.readNew()
      .catch(() => {
        // The database is away: the next notice, or the safety read, tries again.
      })
      .finally(() => {
        this.reading = false;
        if (this.readAgain) {
          this.readAgain = false;
          this.poke();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (;;) {
      this.counters.rounds++;
      const rows = await this.db.select().from(notices).where(gt(notices.id, this.watermark)).orderBy(asc(notices.id)).limit(BATCH);
      for (const row of rows) {
        this.watermark = row.id;
        const streams = this.byReader.get(readerKey(row.recipientKind, row.recipientId));
        if (!streams) continue;
        // Rendered once per language for all of the reader's streams (a reader may hold hundreds).
        const texts = new Map<Lang, string>();
        for (const s of streams) this.deliver(s, row, texts);
      }
      if (rows.length < BATCH) return;
    }
  }

  private deliver(s: Stream, row: StoredNotice, texts?: Map<Lang, string>) {
    if (s.closed) return;
    if (s.waiting) {
      s.waiting.push(row);
      return;
    }
    if (row.id <= s.lastId) return;
    s.lastId = row.id;
    this.counters.sent++;
    let text = texts?.get(s.lang);
    if (text === undefined) {
      text = `id: ${row.id}\nevent: notice\ndata: ${JSON.stringify(toNoticeRow(row, s.lang))}\n\n`;
      texts?.set(s.lang, text);
    }
    this.write(s, text);
  }

  private write(s: Stream, text: string) {
    if (s.closed) return;
    if (s.raw.writableLength > MAX_BUFFERED) {
      this.close(s, 'slow');
      return;
    }
    s.raw.write(text);
  }

  /** Opens a stream on a hijacked response: headers, the missed rows (after `after`), then live rows. */
  async openStream(o: OpenStream): Promise<void> {
    await this.start();
    const s: Stream = {
      seq: ++this.seq,
      sessionId: o.sessionId,
      reader: readerKey(o.reader.kind, o.reader.id),
      lang: o.lang,
      raw: o.raw,
      lastId: o.after ?? this.watermark,
      waiting: o.after != null ? [] : null,
      closed: false,
    };
    o.raw.writeHead(200, Object.assign({}, o.headers, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'keep-alive' }));
    o.raw.write('retry: 3000\n: connected\n\n');
    o.raw.on('close', () => this.remove(s));
    this.add(s);
    if (s.waiting) {
      try {
        const missed = await this.db
          .select()
          .from(notices)
          .where(and(eq(notices.recipientKind, o.reader.kind), eq(notices.recipientId, o.reader.id), gt(notices.id, o.after!)))
          .orderBy(asc(notices.id))
          .limit(BATCH);
        const live = s.waiting;
        s.waiting = null;
        for (const row of missed) this.deliver(s, row);
        for (const row of live) this.deliver(s, row);
      } catch {
        this.close(s, 'error');
      }
    }
  }

  private add(s: Stream) {
    const set = this.byReader.get(s.reader) ?? new Set<Stream>();
    this.byReader.set(s.reader, set);
    set.add(s);
    const list = this.bySession.get(s.sessionId) ?? [];
    list.push(s);
    this.bySession.set(s.sessionId, list);
    while (list.length > MAX_STREAMS_PER_SESSION) this.close(list[0]!, 'too_many_streams');
  }

  private remove(s: Stream) {
    s.closed = true;
    const set = this.byReader.get(s.reader);
    if (set) {
      set.delete(s);
      if (!set.size) this.byReader.delete(s.reader);
    }
    const list = this.bySession.get(s.sessionId);
    if (list) {
      const i = list.indexOf(s);
      if (i >= 0) list.splice(i, 1);
      if (!list.length) this.bySession.delete(s.sessionId);
    }
  }

  /** Ends a stream with a last event saying why. */
  private close(s: Stream, reason: string) {
    if (s.closed) return;
    this.remove(s);
    s.raw.end(`event: closed\ndata: ${JSON.stringify({ reason })}\n\n`);
  }

  /** The comment on every stream, and the end of the streams whose session ended. */
  async heartbeat(): Promise<void> {
    for (const list of this.bySession.values()) for (const s of list) this.write(s, ': keep-alive\n\n');
    const ids = [...this.bySession.keys()];
    if (!ids.length) return;
    try {
      // Past its expiry or idle too long (a stream does not keep a session alive), as the access check judges it.
      const idle = (await readParams(this.db)).session_idle_minutes;
      const now = Date.now();
      const rows = await this.db.select({ id: sessions.id, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt }).from(sessions).where(inArray(sessions.id, ids));
      const alive = new Set(rows.filter((r) => isLive(r, idle, now)).map((r) => r.id));
      for (const id of ids) if (!alive.has(id)) for (const s of [...(this.bySession.get(id) ?? [])]) this.close(s, 'session_ended');
    } catch {
      // The database is away: checked again at the next beat.
    }
  }

  /** Ends every stream and the listener (the server is closing). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const list of [...this.bySession.values()]) for (const s of [...list]) this.close(s, 'shutdown');
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => {});
  }
}

/** The hub of each open database's app (routes.ts sets it; tests read it). */
const hubs = new WeakMap<object, NoticeHub>();
export const hubOf = (db: object): NoticeHub | undefined => hubs.get(db);
export const setHub = (db: object, hub: NoticeHub) => hubs.set(db, hub);
