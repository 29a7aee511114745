/**
 * The live notices (trust-api.md, "Notices"): one stream per open page, `GET /notice/stream` read with
 * fetch, so the session key travels in the Authorization header as on uploads (an EventSource cannot set
 * headers and would put the key in the address). Each notice refreshes the notice queries and the lists
 * its kind concerns (NOTICE_MODULES). A dropped stream is opened again with Last-Event-ID (the server sends
 * what was missed, once). When it cannot be held (three failures in a minute, or the server closed it for
 * too many streams of this session) the page polls instead, and tries the stream again later.
 */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '@app/contract/constants';
import { NOTICE_MODULES, type NoticeRow } from '@app/contract/api/notices';
import { invalidates } from '../../components/list';
import { routeOf } from '../../lib/api';
import { currentLang } from '../../lib/i18n';
import { useSession } from '../../lib/session';

export type LiveMode = 'connecting' | 'live' | 'polling';

/** How often the notice queries refetch while the stream cannot be held. */
export const POLL_MS = 30_000;
/** Back to trying the stream after this long in polling. */
const RETRY_LIVE_MS = 120_000;
const BACKOFF_MS = [1_000, 2_000, 5_000];

interface Parsed {
  id: number | null;
  event: string;
  data: string;
}

/** Splits a stream's text into events; the unfinished tail is kept for the next chunk. */
export function parseEvents(buffer: string): { events: Parsed[]; rest: string } {
  const events: Parsed[] = [];
  let rest = buffer.replace(/\r\n/g, '\n');
  for (let cut = rest.indexOf('\n\n'); cut >= 0; cut = rest.indexOf('\n\n')) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let id: number | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' && /^\d+$/.test(value)) id = Number(value);
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length || event !== 'message') events.push({ id, event, data: data.join('\n') });
  }
  return { events, rest };
}

/** Follows the caller's notices while `enabled`; answers whether the page is live or polling. */
export function useNoticeStream(enabled: boolean, onNotice?: (n: NoticeRow) => void): LiveMode {
  const token = useSession((s) => s.token);
  const qc = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('connecting');
  const handler = useRef(onNotice);
  handler.current = onNotice;

  useEffect(() => {
    if (!enabled || !token) return;
    let stopped = false;
    let lastId: number | null = null;
    let failures: number[] = [];
    let controller: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (ms: number, f: () => void) => {
      timer = setTimeout(f, ms);
    };
    const refresh = (modules: readonly string[]) => qc.invalidateQueries({ predicate: (q) => invalidates(['notices', ...modules], q.queryKey) });

    const connect = async () => {
      if (stopped) return;
      controller = new AbortController();
      let opened = false;
      let closedFor: string | null = null;
      try {
        const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Accept-Language': currentLang(), Accept: 'text/event-stream' };
        if (lastId != null) headers['Last-Event-ID'] = String(lastId);
        const res = await fetch(`${API_BASE}${routeOf('notices.stream').path}`, { headers, signal: controller.signal, cache: 'no-store' });
        if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
          // An envelope (999: signed out; the app's own calls take care of that): nothing to follow.
          const body = await res.json().catch(() => null);
          if (body?.code === 999) {
            stopped = true;
            return;
          }
          throw new Error('no stream');
        }
        opened = true;
        setMode('live');
        // Caught up after a gap: what changed meanwhile is read again.
        if (failures.length) void refresh([]);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const e of parsed.events) {
            if (e.event === 'notice') {
              const notice = JSON.parse(e.data) as NoticeRow;
              if (e.id != null) lastId = e.id;
              void refresh(NOTICE_MODULES[notice.kind] ?? []);
              handler.current?.(notice);
            } else if (e.event === 'closed') {
              closedFor = (JSON.parse(e.data) as { reason?: string }).reason ?? 'closed';
            }
          }
        }
      } catch {
        if (stopped) return;
      }
      if (stopped) return;
      if (closedFor === 'session_ended') return;
      if (closedFor === 'too_many_streams') {
        // Other pages of this session hold the streams: this one polls, and does not take a stream back from them.
        setMode('polling');
        later(RETRY_LIVE_MS, () => void connect());
        return;
      }
      const now = Date.now();
      failures = [...failures.filter((at) => now - at < 60_000), now];
      if (failures.length >= 3 && !opened) {
        setMode('polling');
        failures = [];
        later(RETRY_LIVE_MS, () => void connect());
        return;
      }
      setMode((m) => (m === 'live' ? 'connecting' : m));
      later(BACKOFF_MS[Math.min(failures.length - 1, BACKOFF_MS.length - 1)]!, () => void connect());
    };
    void connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    };
  }, [enabled, token, qc]);

  return mode;
}
