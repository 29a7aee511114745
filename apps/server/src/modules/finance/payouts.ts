/** Finance: payouts: apply (grades 1-2), approve with a voucher or reject (the platform), cancel (the applicant); list, export, snapshot. */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type ListResult,
  maskAccountNo,
  type PayoutApplyBody,
  type PayoutApproveBody,
  type PayoutCancelBody,
  type PayoutExportQuery,
  type PayoutListQuery,
  type PayoutRejectBody,
  type PayoutRow,
  type UploadAnswer,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { institutions, payouts } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows, dateCell } from '../../lib/export';
import { cappedCount, offsetOf, sortBy, sortKey } from '../../lib/list';
import { isInSubtree } from '../institutions';
import { receiveImage } from '../uploads';
import { balanceOf, post } from './ledger';
import { moneyText } from '../../lib/labels';
import { actorOf, raiseNotice } from '../notices';
import { isoOrNull } from '../../lib/time';
import { LABELS, institutionFilter, label, scoped, yuan, dateRange } from './shared';

const payoutInst = alias(institutions, 'payout_inst');

async function payoutRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<PayoutRow[]> {
  const rows = await db
    .select({ p: payouts, name: payoutInst.name })
    .from(payouts)
    .innerJoin(payoutInst, eq(payoutInst.id, payouts.institutionId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ p, name }) => ({
    id: p.id,
    institution_id: p.institutionId,
    institution_name: name,
    amount_cents: Number(p.amountCents),
    bank: p.bank,
    account_name: p.accountName,
    account_no: maskAccountNo(p.accountNo),
    status: p.status,
    reason: p.reason,
    voucher: p.voucher,
    decided_by: p.decidedBy,
    decided_at: isoOrNull(p.decidedAt),
    created_at: p.createdAt.toISOString(),
  }));
}

/** The audit trail's view of a payout (account number masked). */
export async function payoutSnapshot(db: Tx, id: number | null): Promise<PayoutRow | null> {
  if (id == null) return null;
  const [row] = await payoutRows(db, eq(payouts.id, id), [asc(payouts.id)], 1, 0);
  return row ?? null;
}

const PAYOUT_SORTS = { created_at: payouts.createdAt, amount: payouts.amountCents } as const;

async function payoutConditions(db: Tx, auth: Auth, q: Partial<PayoutListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, payouts.institutionId),
    q.institution_id ? eq(payouts.institutionId, q.institution_id) : undefined,
    q.status ? eq(payouts.status, q.status) : undefined,
    ...dateRange(payouts.createdAt, q.date_from, q.date_to),
  );
}

/** GET /payout/list: the caller's subtree (everything for the platform), newest first. */
export async function payoutList(db: Tx, auth: Auth, q: PayoutListQuery): Promise<ListResult<PayoutRow>> {
  const where = await payoutConditions(db, auth, q);
  const [list, count] = await Promise.all([
    payoutRows(db, where, sortBy(PAYOUT_SORTS, q, 'created_at', payouts.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${payouts} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

/** Files a payout and holds its amount at once, in one transaction; the guarded UPDATE makes overdraw impossible. */
export async function recordPayoutApplication(db: Tx, institutionId: number, body: PayoutApplyBody, minimum: number, at?: Date): Promise<number> {
  if (body.amount_cents < minimum) throw badRequest('payoutBelowMinimum', { min: moneyText(minimum) });
  const [row] = await db
    .insert(payouts)
    .values({ institutionId, amountCents: body.amount_cents, bank: body.bank, accountName: body.account_name, accountNo: body.account_no, ...(at ? { createdAt: at } : {}) })
    .returning({ id: payouts.id });
  const balance = await post(db, institutionId, -body.amount_cents, 'payout_hold', { type: 'payout', id: row!.id }, at);
  if (balance == null) throw badRequest('payoutOverBalance', { balance: moneyText(await balanceOf(db, institutionId)) });
  return row!.id;
}

/** POST /payout/apply (fixed): grades 1-2, for their own institution. */
export async function payoutApply(db: Tx, auth: Auth, body: PayoutApplyBody): Promise<{ id: number }> {
  if (auth.kind !== 'institution' || (auth.institution.grade !== 1 && auth.institution.grade !== 2)) throw badRequest('payoutInstitutionOnly');
  const inst = auth.institution;
  const minimum = auth.params.min_payout_cents;
  const id = await recordPayoutApplication(db, inst.id, body, minimum);
  await raiseNotice(db, { kind: 'payout_pending', thingId: id, institutionId: inst.id, params: { institution: inst.name, amount: moneyText(body.amount_cents) }, actor: actorOf(auth) });
  return { id };
}

/** The notice of a payout's decision, to the applicant's side (modules/notices), in the decision's transaction. */
async function noticeDecided(db: Tx, auth: Auth, row: typeof payouts.$inferSelect) {
  const [inst] = await db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, row.institutionId));
  await raiseNotice(db, {
    kind: 'payout_decided',
    thingId: row.id,
    institutionId: row.institutionId,
    params: { institution: inst?.name ?? '', amount: moneyText(Number(row.amountCents)), state: row.status, reason: row.reason || null },
    actor: actorOf(auth),
  });
}

type Decision = { status: 'paid'; voucher: string } | { status: 'rejected'; reason: string } | { status: 'cancelled' };

/**
 * Decides a pending payout exactly once: `UPDATE ... WHERE id = $1 AND status = 'pending' RETURNING`.
 * Rejected and cancelled payouts release their hold. `onlyInstitution`: the applicant's own payouts.
 */
export async function decidePayout(db: Tx, id: number, decision: Decision, by: string, opts: { onlyInstitution?: number; at?: Date } = {}) {
  const at = opts.at ?? new Date();
  const [row] = await db
    .update(payouts)
    .set({
      status: decision.status,
      decidedAt: at,
      decidedBy: by,
      ...(decision.status === 'paid' ? { voucher: decision.voucher } : {}),
      ...(decision.status === 'rejected' ? { reason: decision.reason } : {}),
    })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending'), opts.onlyInstitution ? eq(payouts.institutionId, opts.onlyInstitution) : undefined))
    .returning();
  if (!row) {
    const [current] = await db.select().from(payouts).where(eq(payouts.id, id));
    if (!current) throw notFound();
    if (opts.onlyInstitution && current.institutionId !== opts.onlyInstitution) throw badRequest('payoutNotYours');
    throw badRequest('payoutDecided');
  }
  if (decision.status !== 'paid') {
    const balance = await post(db, row.institutionId, Number(row.amountCents), 'payout_release', { type: 'payout', id: row.id }, opts.at);
    if (balance == null) throw new Error('payout release refused'); // a credit is never refused
  }
  return row;
}

const operatorName = (auth: Auth) => callerRef(auth).username;

/** POST /payout/approve: the platform has paid it (optional voucher image URL). */
export async function payoutApprove(db: Tx, auth: Auth, body: PayoutApproveBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await decidePayout(db, body.id, { status: 'paid', voucher: body.voucher }, operatorName(auth));
  await noticeDecided(db, auth, row);
  return { id: row.id };
}

/** POST /payout/upload_voucher: the transfer slip's image, stored like any upload (within the reviewer's daily quota); its URL goes in the approval. */
export async function payoutVoucher(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<UploadAnswer> {
  if (auth.kind !== 'admin') throw forbidden();
  return receiveImage(db, auth, ctx);
}

/** POST /payout/reject: with a reason; the hold is released. */
export async function payoutReject(db: Tx, auth: Auth, body: PayoutRejectBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await decidePayout(db, body.id, { status: 'rejected', reason: body.reason }, operatorName(auth));
  await noticeDecided(db, auth, row);
  return { id: row.id };
}

/** POST /payout/cancel: the applicant withdraws its own pending payout; the hold is released. */
export async function payoutCancel(db: Tx, auth: Auth, body: PayoutCancelBody): Promise<{ id: number }> {
  // The platform decides (approve/reject); only the applicant withdraws its own.
  if (auth.kind !== 'institution') throw badRequest('payoutNotYours');
  const inst = auth.institution;
  const [current] = await db.select({ institutionId: payouts.institutionId }).from(payouts).where(eq(payouts.id, body.id));
  if (!current || !(await isInSubtree(db, inst.path, current.institutionId))) throw notFound();
  const row = await decidePayout(db, body.id, { status: 'cancelled' }, operatorName(auth), { onlyInstitution: inst.id });
  await noticeDecided(db, auth, row);
  return { id: row.id };
}

export async function payoutExport(db: Tx, auth: Auth, q: PayoutExportQuery, ctx: Ctx) {
  const where = await payoutConditions(db, auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<PayoutRow>[] = [
    { title: label(LABELS.appliedAt, lang), value: (r) => dateCell(r.created_at), width: 20 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.bank, lang), value: (r) => r.bank, width: 20 },
    { title: label(LABELS.accountName, lang), value: (r) => r.account_name, width: 16 },
    { title: label(LABELS.accountNo, lang), value: (r) => r.account_no, width: 24 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.payoutStatuses[r.status], lang) },
    { title: label(LABELS.reason, lang), value: (r) => r.reason ?? '', width: 24 },
    { title: label(LABELS.decidedBy, lang), value: (r) => r.decided_by ?? '', width: 16 },
    { title: label(LABELS.decidedAt, lang), value: (r) => dateCell(r.decided_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'payouts',
    sheet: label(LABELS.payoutSheet, lang),
    columns,
    where,
    key: sortKey(PAYOUT_SORTS, q, 'created_at', payouts.id),
    fetch: (w, order, limit) => payoutRows(db, w, order, limit, 0),
    count: sql`from ${payouts} where ${where ?? sql`true`}`,
  });
}

/** GET /device_payment/export: the filtered payments, in the list's order, as CSV or XLSX; amounts in yuan. */
