import { z } from 'zod';
import { answer, defineEndpoints, get, idInput, idSchema, noInput, nullAnswer, post } from '../endpoint';

/*
 * One's own sessions (trust-api.md, "Sessions"; ASVS 5.0 7.4.5, 7.5.2): the list of the caller's signed-in
 * sessions, ending one of them or all the others, and, for the platform, ending every session of another
 * account. An ended session's key answers 999 at its next call, in every server process. The endpoint
 * table is `sessionsApi` at the end of this file.
 */

export interface SessionRow {
  id: number;
  /** The session of the calling key. */
  current: boolean;
  created_at: string;
  last_seen_at: string;
  /** The address it signed in from. */
  ip: string;
  /** The browser's User-Agent at sign-in (the web app shows it as a browser and system). */
  user_agent: string;
  /** An overdue institution's restricted key (it reaches only its notice and code redemption). */
  restricted: boolean;
}
export interface SessionListAnswer {
  list: SessionRow[];
}

export const ACCOUNT_KINDS = ['admin', 'institution'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Grade 0: every session of another account; the account's status button is needed. */
export const endAccountBody = z.object({ kind: z.enum(ACCOUNT_KINDS), id: idSchema });
export type EndAccountBody = z.infer<typeof endAccountBody>;

export interface EndedAnswer {
  /** How many sessions were ended. */
  ended: number;
}

export const sessionsApi = defineEndpoints('sessions', {
  /** The caller's own sessions, the current one first, then by last activity. */
  list: get('/session/list', { session: true, mfaSetup: true }, noInput, answer<SessionListAnswer>()),
  /** Ends one of the caller's own sessions (another account's id is refused as not found). */
  end: post('/session/end', { session: true }, idInput, nullAnswer, { audit: false }),
  /** Ends every session of the caller but the current one. */
  endOthers: post('/session/end_others', { session: true }, noInput, answer<EndedAnswer>(), { audit: false }),
  /** Grade 0 holding the account's status button (`admin:status`, `institution:status`): ends every session of that account. */
  endAccount: post('/session/end_account', { session: true, kind: 'admin' }, endAccountBody, answer<EndedAnswer>(), { audit: false, stepUp: true }),
});
