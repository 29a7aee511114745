import type { Endpoint } from '@app/contract';
import type { Tx } from '../db/client';
import { auditLog } from '../db/schema';

/** Who wrote: the parts of the caller the audit row keeps (http/access.ts's Auth fits). */
export interface AuditActor {
  kind: 'admin' | 'institution';
  admin?: { id: number; username: string; viewRoleId: number | null };
  institution?: { id: number; username: string };
}

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

export interface AuditEntry {
  auth: AuditActor | null;
  endpoint: Pick<Endpoint, 'name' | 'path'>;
  recordType: string | null;
  recordId: number | null;
  before: unknown;
  after: unknown;
  input: unknown;
  ip: string;
}

/** Writes one audit row in the caller's transaction. */
export async function recordAudit(tx: Tx, e: AuditEntry): Promise<void> {
  const actor = e.auth?.kind === 'admin' ? e.auth.admin : e.auth?.kind === 'institution' ? e.auth.institution : undefined;
  await tx.insert(auditLog).values({
    actorKind: e.auth?.kind ?? 'anonymous',
    actorId: actor?.id ?? null,
    actorName: actor?.username ?? '',
    viewRoleId: e.auth?.admin?.viewRoleId ?? null,
    endpoint: e.endpoint.name,
    path: e.endpoint.path,
    recordType: e.recordType,
    recordId: e.recordId,
    ip: e.ip.slice(0, 64),
    before: redact(e.before),
    after: redact(e.after),
    input: redact(e.input),
  });
}
