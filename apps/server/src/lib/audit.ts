import type { Endpoint } from '@app/contract';
import type { Tx } from '../db/client';
import { auditLog } from '../db/schema';

/** Who wrote: the parts of the caller the audit row keeps (http/access.ts's Auth fits). */
export type AuditActor = { kind: 'admin'; admin: { id: number; username: string; viewRoleId: number | null } } | { kind: 'institution'; institution: { id: number; username: string } };

/** A record as the audit trail shows it, by id (null: the whole set, e.g. the system parameters). */
export type AuditSnapshot = (tx: Tx, id: number | null) => Promise<unknown>;

/** Keys whose values never reach the audit trail, in any nesting (nor a log line: lib/log.ts). */
export const SECRET_KEY = /pass(word)?|secret|token|^key$|key_?hash|_key$|api_path/i;
export const REDACTED = '[redacted]';

/** A copy with every secret-looking field replaced (values of keys matching SECRET_KEY), dates as ISO text. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth > 8) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 500).map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (/^institution_id_\d+$/.test(k)) continue;
    out[k] = SECRET_KEY.test(k) ? (v == null || v === '' ? v : REDACTED) : redact(v, depth + 1);
  }
  return out;
}

export type AuditEvent = 'write' | 'read' | 'export' | 'sign_in' | 'sign_out';
export type AuditReason = 'bad_credentials' | 'throttled' | 'disabled' | 'forbidden' | 'cancelled' | 'second_factor';

export interface AuditEntry {
  auth: AuditActor | null;
  endpoint: Pick<Endpoint, 'name' | 'path'>;
  recordType: string | null;
  recordId: number | null;
  before: unknown;
  after: unknown;
  input: unknown;
  ip: string;
  /** Default 'write'. The row's `change` is derived from it (and the snapshots) by the database. */
  event?: AuditEvent;
  /** Default 'ok'. */
  outcome?: 'ok' | 'refused';
  reason?: AuditReason | null;
  userAgent?: string;
  /** An export's rows sent. */
  rows?: number | null;
  /**
   * Who, when no session says it (a sign-in attempt): the sign-in's kind, and the account's id once the
   * password was right, else only the username tried.
   */
  claimed?: { kind: 'admin' | 'institution'; id: number | null; username: string };
}

/** The User-Agent as a row keeps it: the one rule, shared with the sessions (lib/sessions.ts). */
import { userAgentOf } from './sessions';

export { userAgentOf };

/**
 * Writes one audit row: in the caller's transaction for a write, or as one statement of its own (a read,
 * an export, a sign-in event). A failure throws: the caller's answer fails with it (fail closed).
 */
export async function recordAudit(tx: Tx, e: AuditEntry): Promise<void> {
  const actor = e.auth?.kind === 'admin' ? e.auth.admin : e.auth?.kind === 'institution' ? e.auth.institution : undefined;
  await tx.insert(auditLog).values({
    actorKind: e.auth?.kind ?? e.claimed?.kind ?? 'anonymous',
    actorId: actor?.id ?? e.claimed?.id ?? null,
    actorName: (actor?.username ?? e.claimed?.username ?? '').slice(0, 64),
    viewRoleId: e.auth?.kind === 'admin' ? e.auth.admin.viewRoleId : null,
    endpoint: e.endpoint.name,
    path: e.endpoint.path,
    recordType: e.recordType,
    recordId: e.recordId,
    ip: e.ip.slice(0, 64),
    before: redact(e.before),
    after: redact(e.after),
    input: redact(e.input),
    event: e.event ?? 'write',
    outcome: e.outcome ?? 'ok',
    reason: e.reason ?? null,
    userAgent: (e.userAgent ?? '').slice(0, 256),
    rowCount: e.rows ?? null,
  });
}

/** How long one key's refusals are written once (the rest counted into the next row), and how many keys are remembered. */
export const REFUSAL_WINDOW_MS = 60_000;
const REFUSAL_KEYS_MAX = 10_000;

/**
 * Bounds the refused rows an attacker can cause (a flood of throttled sign-ins from one address, a
 * signed-in caller hammering a forbidden write): per key (the address and sign-in, or the session and
 * endpoint), one row per REFUSAL_WINDOW_MS in this process; the refusals not written are counted and
 * the next row written for the key says how many (`suppressed` in its input). Memory stays bounded: past
 * REFUSAL_KEYS_MAX keys, the ones whose window ended are dropped, and if that is not enough, all.
 */
export class RefusalLimiter {
  private readonly keys = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly windowMs = REFUSAL_WINDOW_MS,
    private readonly maxKeys = REFUSAL_KEYS_MAX,
  ) {}

  /** Null: do not write (counted); else write, and the number of refusals of this key left unwritten since its last row. */
  admit(key: string, now = Date.now()): { suppressed: number } | null {
    const seen = this.keys.get(key);
    if (seen && seen.until > now) {
      seen.suppressed++;
      return null;
    }
    if (!seen && this.keys.size >= this.maxKeys) {
      for (const [k, v] of this.keys) if (v.until <= now) this.keys.delete(k);
      if (this.keys.size >= this.maxKeys) this.keys.clear();
    }
    this.keys.set(key, { until: now + this.windowMs, suppressed: 0 });
    return { suppressed: seen?.suppressed ?? 0 };
  }
}

/** The process's limiter of refused rows (lib/audit.ts RefusalLimiter). */
export const refusals = new RefusalLimiter();

/** The input a refused row keeps: the call's (redacted when written), plus the refusals left unwritten before it. */
export const withSuppressed = (input: unknown, suppressed: number): unknown =>
  suppressed > 0 ? Object.assign({}, input && typeof input === 'object' && !Array.isArray(input) ? input : { value: input }, { suppressed }) : input;

/**
 * A sign-in event's audit row (docs/decisions.md, "Access audit"): who (the account once the password was
 * right, else only the username tried: a wrong password and an unknown account leave the same row), from
 * where, with which browser. The input kept is the username alone: never the password.
 */
export function signInRow(
  ctx: { ip: string; req: { endpoint: Endpoint | null; headers: Record<string, string | string[] | undefined> } },
  kind: 'admin' | 'institution',
  username: string,
  account: { id: number; username: string } | null,
  outcome: 'ok' | 'refused',
  reason: AuditReason | null,
  suppressed = 0,
): AuditEntry {
  return {
    auth: null,
    claimed: { kind, id: account?.id ?? null, username: account?.username ?? username },
    endpoint: ctx.req.endpoint!,
    recordType: account ? kind : null,
    recordId: account?.id ?? null,
    before: null,
    after: null,
    input: withSuppressed({ username }, suppressed),
    ip: ctx.ip,
    event: 'sign_in',
    outcome,
    reason,
    userAgent: userAgentOf(ctx.req.headers),
  };
}
