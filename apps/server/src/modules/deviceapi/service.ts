import { createHash, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type Analysis,
  analyse,
  DEVICE_RATE_PER_MINUTE,
  DEVICE_VERSION_RE,
  type DeviceInspectionAnswer,
  type DeviceInspectionBody,
  type DevicePackagesAnswer,
  type DevicePaymentAnswer,
  type DevicePaymentBody,
  type DeviceRefusal,
  type DeviceStatusAnswer,
  type DeviceUser,
  type MessageKey,
  normalizeSerial,
  type Readings,
} from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { devices, doctors, endUsers, inspections, institutions, packages } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { recordDevicePayment } from '../finance';
import { loadAnalysisMaster } from './master';
import { isoOrNull } from '../../lib/time';

/*
 * The device API (device-api.md): a device authenticates with `Bearer <serial>.<secret>` (split at the
 * first dot: serials have none); the secret's SHA-256 is compared with the stored one in constant time.
 * Every authenticated call updates `last_seen_at` and counts towards the device's rate limit in the
 * same single UPDATE (a fixed one-minute window kept on the device row: every server process sees it).
 */

export type Device = typeof devices.$inferSelect;

/** A refusal of the device API: HTTP status = code; `reason` answered as `datas.error.reason`. */
export class DeviceApiError extends AppError {
  constructor(
    code: 401 | 403 | 429,
    key: MessageKey,
    public readonly reason: string,
    params: Record<string, string | number> = {},
  ) {
    super(code, key, params, { status: code, reason });
  }
}

const REFUSAL_KEYS: Record<DeviceRefusal, MessageKey> = {
  inactive: 'deviceApiInactive',
  disabled: 'deviceApiDisabled',
  expired: 'deviceApiExpired',
  no_uses: 'deviceApiNoUses',
};
const refuse = (reason: DeviceRefusal) => new DeviceApiError(403, REFUSAL_KEYS[reason], reason);
const unauthorized = () => new DeviceApiError(401, 'deviceApiUnauthorized', 'unauthorized');

/** A hash no secret has (compared against when the serial is unknown, so both paths do the same work). */
const NO_HASH = Buffer.alloc(32);
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Splits `Bearer <serial>.<secret>`; null when malformed. */
export function parseBearer(header: string | undefined): { serial: string; secret: string } | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) return null;
  const token = match[1]!;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1) return null;
  return { serial: normalizeSerial(token.slice(0, dot)), secret: token.slice(dot + 1) };
}

/**
 * Authenticates a call: the device of the bearer's serial whose secret hashes to the stored hash, then
 * one UPDATE stamps last_seen_at (and the version the call reports) and counts the call in the current minute. Refused: 401 (missing or
 * wrong credentials), 429 (over the per-minute limit, with the seconds to wait).
 */
export async function authenticate(db: Db, header: string | undefined, version?: string | null): Promise<Device> {
  const bearer = parseBearer(header);
  if (!bearer || bearer.serial.length > 40 || bearer.secret.length > 200) throw unauthorized();
  const [found] = await db.select({ id: devices.id, secretHash: devices.secretHash }).from(devices).where(eq(devices.serial, bearer.serial));
  const stored = found?.secretHash && /^[0-9a-f]{64}$/.test(found.secretHash) ? Buffer.from(found.secretHash, 'hex') : NO_HASH;
  const same = timingSafeEqual(sha256(bearer.secret), stored);
  if (!found || !same || stored === NO_HASH) throw unauthorized();
  const minute = sql`date_trunc('minute', now())`;
  const [device] = await db
    .update(devices)
    .set(
      Object.assign(
        {
          lastSeenAt: sql`now()`,
          rateCount: sql`case when ${devices.rateWindow} = ${minute} then ${devices.rateCount} + 1 else 1 end`,
          rateWindow: minute,
        },
        // The last X-Device-Version sent (trust-api.md); a call without one leaves it as it was.
        version ? { reportedVersion: version } : {},
      ),
    )
    .where(eq(devices.id, found.id))
    .returning();
  if (!device) throw unauthorized();
  if (device.rateCount > DEVICE_RATE_PER_MINUTE) {
    const seconds = Math.max(1, 60 - new Date().getUTCSeconds());
    const error = new DeviceApiError(429, 'deviceApiRateLimited', 'rate_limited', { seconds });
    error.extra.retryAfter = seconds;
    throw error;
  }
  return device;
}

/**
 * Whether the device may work now. Always refused: inactive, disabled. `usable`: also refused when its
 * term is over (time-based: no expiry or past it) or it has no uses left (count-based: remaining_uses
 * not null). Payments, status and packages skip the second check (an expired device renews by paying).
 */
export function assertWorking(device: Device, usable: boolean, now = Date.now()) {
  if (device.status === 'inactive') throw refuse('inactive');
  if (device.status === 'disabled') throw refuse('disabled');
  if (!usable) return;
  if (device.remainingUses != null) {
    if (device.remainingUses <= 0) throw refuse('no_uses');
  } else if (!device.expiresAt || device.expiresAt.getTime() <= now) throw refuse('expired');
}

/** GET status: the device as the server knows it. */
export async function status(db: Tx, device: Device): Promise<DeviceStatusAnswer> {
  assertWorking(device, false);
  const [inst] = device.institutionId ? await db.select({ id: institutions.id, name: institutions.name }).from(institutions).where(eq(institutions.id, device.institutionId)) : [];
  return {
    serial: device.serial,
    status: device.status,
    expires_at: isoOrNull(device.expiresAt),
    remaining_uses: device.remainingUses,
    institution: inst ? { id: inst.id, name: inst.name } : null,
  };
}

/** GET packages: the packages on sale, in their sort order. */
export async function listPackages(db: Tx, device: Device): Promise<DevicePackagesAnswer> {
  assertWorking(device, false);
  const rows = await db
    .select()
    .from(packages)
    .where(and(eq(packages.status, 'on_sale'), isNull(packages.deletedAt)))
    .orderBy(asc(packages.sortOrder), asc(packages.id));
  return { list: rows.map((p) => ({ id: p.id, name: p.name, kind: p.kind, uses: p.uses, days: p.days, price_cents: p.priceCents })) };
}

/**
 * The end user of a payment or an inspection, within the device's institution: a known one by id; else
 * matched by ID number, then by phone, then (when neither is given) by name, gender and birth date; else
 * created. Matching on the details makes a repeated call resolve to the same user.
 */
export async function resolveEndUser(db: Tx, institutionId: number, user: DeviceUser): Promise<number> {
  const live = and(eq(endUsers.institutionId, institutionId), isNull(endUsers.deletedAt));
  if ('id' in user) {
    const [found] = await db
      .select({ id: endUsers.id })
      .from(endUsers)
      .where(and(eq(endUsers.id, user.id), live));
    if (!found) throw fieldError('user', 'deviceApiUser');
    return found.id;
  }
  const tries = [
    user.id_number ? eq(endUsers.idNumber, user.id_number) : undefined,
    user.phone ? eq(endUsers.phone, user.phone) : undefined,
    !user.id_number && !user.phone ? and(eq(endUsers.name, user.name), eq(endUsers.gender, user.gender), eq(endUsers.birthDate, user.birth_date)) : undefined,
  ];
  for (const cond of tries) {
    if (!cond) continue;
    const [found] = await db.select({ id: endUsers.id }).from(endUsers).where(and(cond, live)).orderBy(asc(endUsers.id)).limit(1);
    if (found) return found.id;
  }
  if (user.id_number) {
    // ID numbers are unique across institutions: a user of another institution is not this one's to use.
    const [elsewhere] = await db
      .select({ id: endUsers.id })
      .from(endUsers)
      .where(and(eq(endUsers.idNumber, user.id_number), isNull(endUsers.deletedAt)));
    if (elsewhere) throw fieldError('user', 'deviceApiUser');
  }
  const [created] = await db
    .insert(endUsers)
    .values({
      name: user.name,
      gender: user.gender,
      birthDate: user.birth_date,
      phone: user.phone ?? null,
      idNumber: user.id_number ?? null,
      heightTenths: user.height_cm != null ? Math.round(user.height_cm * 10) : null,
      weightTenths: user.weight_kg != null ? Math.round(user.weight_kg * 10) : null,
      institutionId,
    })
    .returning({ id: endUsers.id });
  return created!.id;
}

const ownerOf = (device: Device) => {
  if (device.institutionId == null) throw badRequest('deviceApiNoOwner');
  return device.institutionId;
};

/**
 * POST payments: the money module records it in one transaction (the package's rule: on sale, the amount
 * its price; the device effect, the payment record, the commissions); a repeat of an order number answers
 * the first result; other content under the same number is refused with reason `duplicate`.
 */
export async function pay(db: Db, device: Device, body: DevicePaymentBody): Promise<DevicePaymentAnswer> {
  assertWorking(device, false);
  const institutionId = ownerOf(device);
  return db.transaction(async (tx) => {
    const endUserId = body.end_user ? await resolveEndUser(tx, institutionId, body.end_user) : null;
    const result = await recordDevicePayment(tx, {
      deviceId: device.id,
      packageId: body.package_id,
      orderNo: body.order_no,
      amountCents: body.amount_cents,
      channel: body.channel,
      paidAt: new Date(body.paid_at),
      endUserId,
    });
    return { record_id: result.recordId, order_no: result.orderNo, remaining_uses: result.remainingUses, expires_at: isoOrNull(result.expiresAt) };
  });
}

const duplicate = (no: string) => new AppError(400, 'deviceApiDuplicate', { no }, { reason: 'duplicate' });

/** Whether a repeated inspection carries the same content as the stored one. */
function sameInspection(stored: typeof inspections.$inferSelect, body: DeviceInspectionBody) {
  const canon = (v: unknown) => JSON.stringify(v ?? null);
  const readings = Object.fromEntries(Object.keys(body.readings).map((m) => [m, stored.readings[m]]));
  return canon(readings) === canon(body.readings) && stored.measuredAt.getTime() === new Date(body.measured_at).getTime();
}

/**
 * POST inspections: stores the raw inspection with the device's owner at that moment, spends one use on
 * a count-based device (a guarded UPDATE: never below zero, so concurrent inspections cannot overspend),
 * counts it on the device, the user and the doctor, and answers the analysis, all in one transaction.
 * Idempotent by inspection_no per device: a repeat answers the first result and spends nothing; other
 * readings under the same number are refused with reason `duplicate`.
 */
export async function inspect(db: Db, device: Device, body: DeviceInspectionBody): Promise<DeviceInspectionAnswer> {
  const answerOf = (row: typeof inspections.$inferSelect): DeviceInspectionAnswer => ({
    id: row.id,
    inspection_no: row.inspectionNo,
    remaining_uses: row.remainingUses,
    analysis: (row.analysis as Analysis | null) ?? null,
  });
  const existingOf = async (tx: Tx) =>
    (
      await tx
        .select()
        .from(inspections)
        .where(and(eq(inspections.deviceId, device.id), eq(inspections.inspectionNo, body.inspection_no)))
    )[0];
  // A repeat is answered before the device's state is checked: its use was spent when it first arrived.
  const before = await existingOf(db);
  if (before) {
    if (!sameInspection(before, body)) throw duplicate(body.inspection_no);
    return answerOf(before);
  }
  assertWorking(device, true);
  const institutionId = ownerOf(device);
  return db.transaction(async (tx) => {
    // The device row is locked first: inspections of one device run one after another, so a repeat
    // racing its original finds the stored row here.
    const [current] = await tx.select().from(devices).where(eq(devices.id, device.id)).for('update');
    const again = await existingOf(tx);
    if (again) {
      if (!sameInspection(again, body)) throw duplicate(body.inspection_no);
      return answerOf(again);
    }
    if (!current) throw unauthorized();
    assertWorking(current, true);
    if (current.institutionId !== institutionId) throw badRequest('deviceApiNoOwner');
    if (body.doctor_id != null) {
      const [doctor] = await tx
        .select({ id: doctors.id })
        .from(doctors)
        .where(and(eq(doctors.id, body.doctor_id), eq(doctors.institutionId, institutionId), isNull(doctors.deletedAt)));
      if (!doctor) throw fieldError('doctor_id', 'deviceApiDoctor');
    }
    const endUserId = await resolveEndUser(tx, institutionId, body.user);

    let remainingUses: number | null = current.remainingUses;
    if (current.remainingUses != null) {
      const spent = await tx.execute<{ remaining_uses: number }>(
        sql`update ${devices} set remaining_uses = remaining_uses - 1, total_inspections = total_inspections + 1 where id = ${device.id} and remaining_uses > 0 returning remaining_uses`,
      );
      const row = (spent as unknown as { rows: { remaining_uses: number }[] }).rows[0];
      if (!row) throw refuse('no_uses');
      remainingUses = row.remaining_uses;
    } else {
      await tx
        .update(devices)
        .set({ totalInspections: sql`${devices.totalInspections} + 1` })
        .where(eq(devices.id, device.id));
    }

    const analysis = analyse(body.readings as Readings, await loadAnalysisMaster(tx));
    const measuredAt = new Date(body.measured_at);
    const [row] = await tx
      .insert(inspections)
      .values({
        deviceId: device.id,
        institutionId,
        inspectionNo: body.inspection_no,
        measuredAt,
        doctorId: body.doctor_id ?? null,
        endUserId,
        readings: body.readings,
        vitals: body.vitals ?? null,
        analysis,
        remainingUses,
      })
      .returning();
    await tx
      .update(endUsers)
      .set({
        inspectionCount: sql`${endUsers.inspectionCount} + 1`,
        lastInspectionAt: sql`greatest(${endUsers.lastInspectionAt}, ${measuredAt.toISOString()}::timestamptz)`,
      })
      .where(eq(endUsers.id, endUserId));
    if (body.doctor_id != null)
      await tx
        .update(doctors)
        .set({ inspectionCount: sql`${doctors.inspectionCount} + 1` })
        .where(eq(doctors.id, body.doctor_id));
    return answerOf(row!);
  });
}

/**
 * The `X-Device-Version` of a call (trust-api.md, "Device version and presence"): printable ASCII, at most
 * 64 characters; absent: null. Anything else is refused (400) before the call is authenticated.
 */
export function deviceVersionOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!DEVICE_VERSION_RE.test(value)) throw badRequest('deviceVersionInvalid');
  return value;
}
