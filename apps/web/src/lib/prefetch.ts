/**
 * Calls started before the page that needs them renders (a page's `prefetch`, lib/pages.ts): the home
 * page's rows go out beside the user info instead of after it. The page's own query takes the call in
 * flight (components/list/endpoint-queries.ts) instead of sending another.
 *
 * Plain promises, not the query cache: react-query loads with the shell, and the boot code (the login
 * page's) stays without it.
 */
import { call, type EndpointName, type Input } from './api';
import { useSession } from './session';
import { onSessionReset } from './session-reset';

/** A call not taken within this time is dropped (the page asks afresh): the query cache's staleTime. */
const KEEP_MS = 30_000;

const pending = new Map<string, { at: number; answer: Promise<unknown> }>();

/** One text per endpoint and input, whatever the order of the input's fields. */
const keyOf = (name: string, input: Record<string, unknown>) => JSON.stringify([name, Object.entries(input).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

/**
 * Sends the call now, with the session's key (nothing without one). Quiet: if it fails, the page's query
 * sends the call again and that one says what went wrong (the 400 message, the expired-session dialog),
 * once.
 */
export function prefetchCall<N extends EndpointName>(name: N, input: Record<string, string | number>): void {
  if (!useSession.getState().token) return;
  const answer = call(name, input as Input<N>, { silent: true, quietExpired: true });
  answer.catch(() => undefined);
  pending.set(keyOf(name, input), { at: Date.now(), answer });
}

/** The call in flight (or answered) for this endpoint and input, once; undefined if none or too old. */
export function takePrefetched<N extends EndpointName>(name: N, input: Record<string, unknown>): Promise<unknown> | undefined {
  const key = keyOf(name, input);
  const entry = pending.get(key);
  if (!entry) return undefined;
  pending.delete(key);
  return Date.now() - entry.at <= KEEP_MS ? entry.answer : undefined;
}

// Another identity (login, logout, view-as-role) never gets this one's answers.
onSessionReset(() => pending.clear());
