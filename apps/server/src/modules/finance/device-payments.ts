/** Finance: device payments: the scoped list with totals and each caller's view of the commissions, export, snapshot, refund (grade 0). */
import { and, asc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PaymentExportQuery, PaymentListQuery, PaymentListResult, PaymentRefundBody, PaymentRow, PaymentTotals } from '@app/contract';
import type { Tx } from '../../db/client';
import { devicePayments, devices, institutions, packages } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden } from '../../lib/errors';
import { moneyText } from '../../lib/labels';
import { actorOf, raiseNotice } from '../notices';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { cappedCount, likeEscape, offsetOf, sortBy, sortKey, rowsOf } from '../../lib/list';
import { refundPayment } from './payments';
import { isoOrNull } from '../../lib/time';
import { LABELS, institutionFilter, label, scoped, yuan, dateRange } from './shared';

const payInst = alias(institutions, 'pay_inst');

async function paymentConditions(db: Tx, auth: Auth, q: Partial<PaymentListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, devicePayments.institutionId),
    q.device_id ? eq(devicePayments.deviceId, q.device_id) : undefined,
    q.serial ? sql`${devicePayments.deviceId} in (select ${devices.id} from ${devices} where ${ilike(devices.serial, `%${likeEscape(q.serial)}%`)})` : undefined,
    q.institution_id ? eq(devicePayments.institutionId, q.institution_id) : undefined,
    q.package_id ? eq(devicePayments.packageId, q.package_id) : undefined,
    q.channel ? eq(devicePayments.channel, q.channel) : undefined,
    q.status ? eq(devicePayments.status, q.status) : undefined,
    ...dateRange(devicePayments.paidAt, q.date_from, q.date_to),
  );
}

/**
 * Which commission lines of a payment the caller may see. An institution never sees its ancestors'
 * figures (domain.md): the platform and grade 1 see every line (grade 1's own, its children's, and the
 * platform's share, which is the rest of an amount it sees); grade 2 sees its own line only; a clinic
 * (grade 3) earns no commission and sees none, nor the ids of the agencies above it. The one rule for
 * the list, its totals and its export. `null` (no caller): the audit trail's snapshot, every line.
 */
export type CommissionView = 'all' | 'own_l2' | 'none';
export function commissionView(auth: Auth | null): CommissionView {
  if (!auth || auth.kind === 'admin') return 'all';
  const grade = auth.institution.grade;
  return grade === 1 ? 'all' : grade === 2 ? 'own_l2' : 'none';
}

async function paymentRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number, auth: Auth | null): Promise<PaymentRow[]> {
  const view = commissionView(auth);
  const all = view === 'all';
  const l2 = view !== 'none';
  const rows = await db
    .select({ p: devicePayments, serial: devices.serial, instName: payInst.name, packageName: packages.name })
    .from(devicePayments)
    .innerJoin(devices, eq(devices.id, devicePayments.deviceId))
    .innerJoin(payInst, eq(payInst.id, devicePayments.institutionId))
    .innerJoin(packages, eq(packages.id, devicePayments.packageId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ p, serial, instName, packageName }) => ({
    id: p.id,
    order_no: p.orderNo,
    device_id: p.deviceId,
    device_serial: serial,
    institution_id: p.institutionId,
    institution_name: instName,
    end_user_id: p.endUserId,
    package_id: p.packageId,
    package_name: packageName,
    amount_cents: Number(p.amountCents),
    channel: p.channel,
    paid_at: p.paidAt.toISOString(),
    status: p.status,
    l1_institution_id: all ? p.l1InstitutionId : null,
    l1_cents: all ? Number(p.l1Cents) : null,
    l2_institution_id: l2 ? p.l2InstitutionId : null,
    l2_cents: l2 ? Number(p.l2Cents) : null,
    platform_cents: all ? Number(p.platformCents) : null,
    refunded_at: isoOrNull(p.refundedAt),
    refund_reason: p.refundReason,
  }));
}

const PAYMENT_SORTS = { paid_at: devicePayments.paidAt, amount: devicePayments.amountCents } as const;

async function paymentTotals(db: Tx, where: SQL | undefined, auth: Auth): Promise<PaymentTotals> {
  const view = commissionView(auth);
  const lines = view === 'all' ? sql`${devicePayments.l1Cents} + ${devicePayments.l2Cents}` : view === 'own_l2' ? sql`${devicePayments.l2Cents}` : sql`0`;
  const [row] = rowsOf<Record<string, string | number>>(
    await db.execute(sql`select count(*)::int as count,
      coalesce(sum(${devicePayments.amountCents}), 0) as amount,
      coalesce(sum(${devicePayments.amountCents}) filter (where ${devicePayments.status} = 'refunded'), 0) as refunded,
      coalesce(sum(${lines}) filter (where ${devicePayments.status} = 'paid'), 0) as commission
      from ${devicePayments} where ${where ?? sql`true`}`),
  );
  return {
    count: Number(row?.count ?? 0),
    amount_cents: Number(row?.amount ?? 0),
    refunded_cents: Number(row?.refunded ?? 0),
    commission_cents: view === 'none' ? null : Number(row?.commission ?? 0),
  };
}

/** GET /device_payment/list: filtered, paged, with the totals of every matching row. */
export async function payments(db: Tx, auth: Auth, q: PaymentListQuery): Promise<PaymentListResult> {
  const where = await paymentConditions(db, auth, q);
  const [list, count, totals] = await Promise.all([
    paymentRows(db, where, sortBy(PAYMENT_SORTS, q, 'paid_at', devicePayments.id), q.limit, offsetOf(q), auth),
    cappedCount(db, sql`from ${devicePayments} where ${where ?? sql`true`}`),
    paymentTotals(db, where, auth),
  ]);
  return Object.assign({ list }, count, { totals });
}

export async function paymentsExport(db: Tx, auth: Auth, q: PaymentExportQuery, ctx: Ctx) {
  const where = await paymentConditions(db, auth, q);
  const lang = ctx.lang;
  const view = commissionView(auth);
  const columns: ExportColumn<PaymentRow>[] = [
    { title: label(LABELS.orderNo, lang), value: (r) => r.order_no, width: 24 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial, width: 16 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.package, lang), value: (r) => r.package_name, width: 20 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.channel, lang), value: (r) => r.channel },
    { title: label(LABELS.paidAt, lang), value: (r) => new Date(r.paid_at), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS[r.status], lang) },
    // The commission columns the caller may see (commissionView): grade 2 gets its own line only.
    ...(view === 'all' ? [{ title: label(LABELS.l1, lang), value: (r: PaymentRow) => yuan(r.l1_cents) }] : []),
    ...(view !== 'none' ? [{ title: label(LABELS.l2, lang), value: (r: PaymentRow) => yuan(r.l2_cents) }] : []),
    ...(view === 'all' ? [{ title: label(LABELS.platform, lang), value: (r: PaymentRow) => yuan(r.platform_cents) }] : []),
    { title: label(LABELS.refundedAt, lang), value: (r) => (r.refunded_at ? new Date(r.refunded_at) : null), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'device-payments',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: sortKey(PAYMENT_SORTS, q, 'paid_at', devicePayments.id),
    fetch: (w, order, limit) => paymentRows(db, w, order, limit, 0, auth),
    count: sql`from ${devicePayments} where ${where ?? sql`true`}`,
  });
}

/** The audit trail's view of a payment. */
export async function paymentSnapshot(db: Tx, id: number | null): Promise<PaymentRow | null> {
  if (id == null) return null;
  const [row] = await paymentRows(db, eq(devicePayments.id, id), [asc(devicePayments.id)], 1, 0, null);
  return row ?? null;
}

/** POST /device_payment/refund: grade 0. */
export async function refund(db: Tx, auth: Auth, body: PaymentRefundBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await refundPayment(db, body.id, body.reason, auth.admin.id);
  const [about] = await db
    .select({ serial: devices.serial, institution: institutions.name })
    .from(devices)
    .leftJoin(institutions, eq(institutions.id, row.institutionId))
    .where(eq(devices.id, row.deviceId));
  await raiseNotice(db, {
    kind: 'refund_done',
    thingId: row.id,
    institutionId: row.institutionId,
    params: { serial: about?.serial ?? '', institution: about?.institution ?? '', order_no: row.orderNo, amount: moneyText(Number(row.amountCents)), reason: row.refundReason || null },
    actor: actorOf(auth),
  });
  return { id: row.id };
}
