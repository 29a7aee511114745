import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idSchema, noInput, optionalId } from '../endpoint';
import { dateTime, listQuery, optionalText } from './common';

/*
 * The audit trail (`/system/audit-log`, grade 0, page AuditLog): every successful write through the
 * endpoint table, with who (admin or institution, and the role a super-admin was viewing as), what
 * (endpoint, record type and id), when, from where, and the record before and after; and the access
 * audit (trust-api.md "Access audit"): every sign-in attempt on both sign-ins (ok, wrong password,
 * throttled, disabled), every sign-out, every read of one person's health data, every export (its
 * filters and the rows sent), and the refused writes and health reads of signed-in callers. Each row
 * says its `event`, its `change` (`read` for reads and exports, `none` for sign-in events) and its
 * `outcome`. Rows are written by the server and never updated or deleted.
 */

export const AUDIT_ACTOR_KINDS = ['admin', 'institution', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
export const AUDIT_CHANGES = ['create', 'update', 'remove', 'none', 'read'] as const;
export type AuditChange = (typeof AUDIT_CHANGES)[number];
export const AUDIT_OUTCOMES = ['ok', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
/** What a row records: a write (every row before the access audit), a read of health data, an export, a sign-in attempt, a sign-out. */
export const AUDIT_EVENTS = ['write', 'read', 'export', 'sign_in', 'sign_out'] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];
/**
 * Why a row's outcome is what it is, when there is more to say: a sign-in refused for a wrong password or
 * an unknown account alike (`bad_credentials`), `throttled`, a right password on a `disabled` account; a
 * `forbidden` write or read; a `cancelled` export (the client went away); `second_factor` is kept for
 * the second factor's refusals (trust-api.md, not built yet).
 */
export const AUDIT_REASONS = ['bad_credentials', 'throttled', 'disabled', 'forbidden', 'cancelled', 'second_factor'] as const;
export type AuditReason = (typeof AUDIT_REASONS)[number];
export const AUDIT_SORTS = ['created_at'] as const;
const dayOrTime = z.union([z.iso.date(), dateTime]);

export const auditListQuery = listQuery(
  {
    /** Account name (contains). */
    actor: optionalText(64),
    actor_kind: z.enum(AUDIT_ACTOR_KINDS).optional(),
    record_type: optionalText(32),
    record_id: optionalId,
    /** Endpoint name (contains), e.g. `packages.` */
    endpoint: optionalText(64),
    change: z.enum(AUDIT_CHANGES).optional(),
    outcome: z.enum(AUDIT_OUTCOMES).optional(),
    event: z.enum(AUDIT_EVENTS).optional(),
    /** A day (YYYY-MM-DD, whole UTC day) or an instant. */
    from: dayOrTime.optional(),
    to: dayOrTime.optional(),
  },
  AUDIT_SORTS,
);
export type AuditListQuery = z.infer<typeof auditListQuery>;

export interface AuditRow {
  id: number;
  created_at: string;
  actor_kind: AuditActorKind;
  actor_id: number | null;
  actor_name: string;
  /** The role a super-admin was viewing as, if any. */
  view_role_id: number | null;
  view_role_name: string | null;
  endpoint: string;
  path: string;
  record_type: string | null;
  record_id: number | null;
  ip: string;
  /**
   * Writes: create (no record before), remove (none after), update (both; a soft delete is an update of
   * deleted_at), none (no snapshot, or a refused write). `read` for reads and exports, `none` for sign-in events.
   */
  change: AuditChange;
  event: AuditEvent;
  outcome: AuditOutcome;
  reason: AuditReason | null;
  user_agent: string;
  /** An export's rows sent (null for other rows). */
  rows: number | null;
  /** Top-level fields whose value differs between before and after (updates only). */
  changed: string[];
}
export interface AuditDetail extends AuditRow {
  before: unknown;
  after: unknown;
  input: unknown;
}

export const auditApi = defineEndpoints('audit', {
  list: get('/audit/list', { page: 'AuditLog' }, auditListQuery, answer<ListResult<AuditRow>>(), { summary: 'Audit trail, filtered and paged (newest first)' }),
  detail: get('/audit/detail', { page: 'AuditLog' }, z.object({ id: idSchema }), answer<AuditDetail>(), { summary: 'One audit row with the record before and after' }),
  recordTypes: get('/audit/record_types', { page: 'AuditLog' }, noInput, answer<string[]>(), { summary: 'Record types present in the trail (filter options)' }),
});
