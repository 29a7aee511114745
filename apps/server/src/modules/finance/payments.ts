import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { commissionCents, extendedTerm } from '@app/contract';
import type { Tx } from '../../db/client';
import { devicePayments, devices, institutions, packages } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { moneyText } from '../../lib/labels';
import { balanceOf, post } from './ledger';
import { DAY } from '../../lib/time';

/*
 * Device payments (device-end records) and their refunds.
 *
 * recordDevicePayment, in the caller's transaction: locks the device row (FOR UPDATE: payments of one
 * device run one after another), computes the effect, then `INSERT ... ON CONFLICT (device_id, order_no)
 * DO NOTHING RETURNING`. A conflict is a repeat: same content answers the first result and changes
 * nothing (`repeated: true`), other content is refused (`duplicate`). Otherwise the device gets the
 * package (count: uses added; time: expiry extended from max(now, expiry)) and the grade-1
 * and grade-2 institutions on the owner's path (the owner itself included when it is grade 1 or 2) are
 * credited at the package's rates, each line rounded half-up on its own; the rest is the platform's.
 * A payment never changes the device's status (device-api.md: inactive and disabled devices are refused
 * by the device API before it gets here; expired or used-up ones are renewed).
 */

export interface DevicePaymentInput {
  deviceId: number;
  packageId: number;
  orderNo: string;
  amountCents: number;
  channel: string;
  paidAt: Date;
  endUserId?: number | null;
}
export interface DevicePaymentResult {
  recordId: number;
  orderNo: string;
  remainingUses: number | null;
  expiresAt: Date | null;
  repeated: boolean;
}

const duplicate = () => {
  const error = badRequest('paymentDuplicate');
  error.extra.reason = 'duplicate';
  return error;
};

/** The grade-1 and grade-2 institutions on an owner's path (itself included), by grade. */
async function commissionHolders(db: Tx, ownerPath: string) {
  const ids = ownerPath
    .split('/')
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  if (!ids.length) return { l1: null, l2: null };
  const rows = await db.select({ id: institutions.id, grade: institutions.grade }).from(institutions).where(inArray(institutions.id, ids));
  return { l1: rows.find((r) => r.grade === 1)?.id ?? null, l2: rows.find((r) => r.grade === 2)?.id ?? null };
}

/** Posts commission-like lines in ascending institution order; null when one would overdraw (the caller rolls back). */
async function postLines(db: Tx, lines: { institutionId: number | null; cents: number }[], kind: 'commission' | 'refund_reversal', paymentId: number, at?: Date) {
  const real = lines.filter((l): l is { institutionId: number; cents: number } => l.institutionId != null && l.cents !== 0).sort((a, b) => a.institutionId - b.institutionId);
  for (const line of real) {
    const balance = await post(db, line.institutionId, line.cents, kind, { type: 'payment', id: paymentId }, at);
    if (balance == null) return line;
  }
  return null;
}

/**
 * The devices module calls this from `POST /deviceapi/v1/payments`, inside its transaction. `opts.at`
 * (demo data only) dates the ledger lines.
 */
export async function recordDevicePayment(db: Tx, input: DevicePaymentInput, opts: { at?: Date } = {}): Promise<DevicePaymentResult> {
  const [device] = await db.select().from(devices).where(eq(devices.id, input.deviceId)).for('update');
  if (!device || device.institutionId == null) throw badRequest('paymentDeviceMissing');
  const endUserId = input.endUserId ?? null;

  const [existing] = await db.select().from(devicePayments).where(sql`${devicePayments.deviceId} = ${input.deviceId} and ${devicePayments.orderNo} = ${input.orderNo}`);
  if (existing) return repeat(existing, input, endUserId);

  // The package rule, after the repeat check (a repeat answers its first result even if the package left sale since).
  const [pkg] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, input.packageId), isNull(packages.deletedAt)));
  if (pkg?.status !== 'on_sale') throw fieldError('package_id', 'deviceApiPackage');
  if (pkg.priceCents !== input.amountCents) throw fieldError('amount_cents', 'deviceApiAmount', { price: pkg.priceCents });

  const [owner] = await db.select({ id: institutions.id, path: institutions.path }).from(institutions).where(eq(institutions.id, device.institutionId));
  const holders = await commissionHolders(db, owner!.path);
  const l1Cents = holders.l1 ? commissionCents(input.amountCents, pkg.commissionRateL1Bp) : 0;
  // Rates sum to at most 100%, but two half-up ties could still round past the amount (1 cent at 50% + 50%): the second line is capped.
  const l2Cents = holders.l2 ? Math.min(commissionCents(input.amountCents, pkg.commissionRateL2Bp), input.amountCents - l1Cents) : 0;
  const platformCents = input.amountCents - l1Cents - l2Cents;

  // "Now" is the transaction's time (demo data: the back-dated `opts.at`); the device's paid_at is not trusted for it.
  const now = opts.at?.getTime() ?? Date.now();
  const usesAdded = pkg.kind === 'count' ? pkg.uses! : null;
  const daysAdded = pkg.kind === 'time' ? pkg.days! : null;
  const { expiresAt: expiresAfter, remainingUses: usesAfter } = extendedTerm(device, { days: daysAdded, uses: usesAdded }, now);

  const [inserted] = await db
    .insert(devicePayments)
    .values({
      deviceId: device.id,
      institutionId: device.institutionId,
      packageId: pkg.id,
      orderNo: input.orderNo,
      amountCents: input.amountCents,
      channel: input.channel,
      paidAt: input.paidAt,
      endUserId,
      usesAdded,
      daysAdded,
      usesAfter,
      expiresBefore: device.expiresAt,
      expiresAfter,
      l1InstitutionId: holders.l1,
      l1Cents,
      l2InstitutionId: holders.l2,
      l2Cents,
      platformCents,
      ...(opts.at ? { createdAt: opts.at } : {}),
    })
    .onConflictDoNothing({ target: [devicePayments.deviceId, devicePayments.orderNo] })
    .returning();
  if (!inserted) {
    // Only reachable when the row lock above was skipped by a concurrent insert of the same order on
    // a device it did not lock (not possible today); answer as a repeat all the same.
    const [again] = await db.select().from(devicePayments).where(sql`${devicePayments.deviceId} = ${input.deviceId} and ${devicePayments.orderNo} = ${input.orderNo}`);
    return repeat(again!, input, endUserId);
  }

  await db.update(devices).set({ remainingUses: usesAfter, expiresAt: expiresAfter }).where(eq(devices.id, device.id));
  await postLines(
    db,
    [
      { institutionId: holders.l1, cents: l1Cents },
      { institutionId: holders.l2, cents: l2Cents },
    ],
    'commission',
    inserted.id,
    opts.at,
  );
  return { recordId: inserted.id, orderNo: inserted.orderNo, remainingUses: usesAfter, expiresAt: expiresAfter, repeated: false };
}

function repeat(row: typeof devicePayments.$inferSelect, input: DevicePaymentInput, endUserId: number | null): DevicePaymentResult {
  const same =
    row.packageId === input.packageId &&
    Number(row.amountCents) === input.amountCents &&
    row.channel === input.channel &&
    row.paidAt.getTime() === input.paidAt.getTime() &&
    (row.endUserId ?? null) === endUserId;
  if (!same) throw duplicate();
  return { recordId: row.id, orderNo: row.orderNo, remainingUses: row.usesAfter, expiresAt: row.expiresAfter, repeated: true };
}

/**
 * A refund (grade 0): exactly once (a conditional UPDATE on status), then the unspent part of the device
 * effect is taken back (count: the package's uses, at most the uses left; time: the package's days, but
 * never before now, so days already elapsed stay spent) and every commission line is reversed. A reversal
 * that would make a balance negative (the agent already withdrew the money) refuses the whole refund
 * with a message naming the institution; nothing changes.
 */
export async function refundPayment(db: Tx, id: number, reason: string, adminId: number | null, at?: Date) {
  const [row] = await db
    .update(devicePayments)
    .set({ status: 'refunded', refundedAt: at ?? new Date(), refundReason: reason, refundedBy: adminId })
    .where(sql`${devicePayments.id} = ${id} and ${devicePayments.status} = 'paid'`)
    .returning();
  if (!row) {
    const [exists] = await db.select({ id: devicePayments.id }).from(devicePayments).where(eq(devicePayments.id, id));
    throw exists ? badRequest('paymentRefunded') : notFound();
  }
  const [device] = await db.select().from(devices).where(eq(devices.id, row.deviceId)).for('update');
  if (device) {
    const now = (at ?? new Date()).getTime();
    const set: Partial<typeof devices.$inferInsert> = {};
    if (row.usesAdded != null && device.remainingUses != null) set.remainingUses = Math.max(0, device.remainingUses - row.usesAdded);
    if (row.daysAdded != null && device.expiresAt) set.expiresAt = new Date(Math.max(now, device.expiresAt.getTime() - row.daysAdded * DAY));
    if (Object.keys(set).length) await db.update(devices).set(set).where(eq(devices.id, device.id));
  }
  const failed = await postLines(
    db,
    [
      { institutionId: row.l1InstitutionId, cents: -Number(row.l1Cents) },
      { institutionId: row.l2InstitutionId, cents: -Number(row.l2Cents) },
    ],
    'refund_reversal',
    row.id,
    at,
  );
  if (failed) {
    const [inst] = await db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, failed.institutionId));
    const balance = await balanceOf(db, failed.institutionId);
    throw badRequest('refundWouldOverdraw', { name: inst?.name ?? '', balance: moneyText(balance), amount: moneyText(-failed.cents) });
  }
  return row;
}
