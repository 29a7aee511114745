/** Activation codes: redemption by institutions, for their own term or a device they own; throttled in routes.ts. */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { extendedTerm, maskCode, type CodeRedeemAnswer, type CodeRedeemBody, type CodeRedeemDeviceAnswer, type CodeRedeemDeviceBody, type CodeScope } from '@app/contract';
import type { Tx } from '../../db/client';
import { activationCodes, activationRecords, devices, institutions, packages, sessions } from '../../db/schema';
import { type Auth, institutionOf } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { type AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { addressKey, clearFailures } from '../../lib/throttle';
import { isInSubtree } from '../institutions';
import type { CodeKeys } from './key';
import { DAY, isoOrNull } from '../../lib/time';
import { batchOf } from './batches';
import { keysOf, withAuditId } from './shared';

/** The throttle's keys for a redemption: the institution, and the address in a namespace of its own (sign-in failures count apart). */
export const throttleKeys = (institutionId: number, ip: string) => ({ username: `code:${institutionId}`, address: `code|${addressKey(ip)}` });

/** The throttled answer: when to try again, in seconds under a minute, else in minutes (rounded up). */
export function throttled(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const error = seconds < 60 ? badRequest('codeTooManyAttemptsSeconds', { seconds }) : badRequest('codeTooManyAttempts', { minutes: Math.ceil(seconds / 60) });
  error.extra.retryAfter = seconds;
  return error;
}

/** The institution ids on the path from the root to the caller: an owned code may be redeemed in its owner's subtree. */
const pathIds = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/**
 * Takes a code for the caller: one conditional UPDATE, which only one of any number of concurrent
 * attempts can win. When no row changed, the code's row says which refusal to answer.
 */
async function takeCode(db: Tx, keys: CodeKeys, code: string, scope: CodeScope, auth: Auth, deviceId: number | null) {
  const inst = institutionOf(auth);
  const lookup = keys.lookup(code);
  const mayOwn = pathIds(inst.path);
  const ownerAllowed = mayOwn.length ? or(isNull(activationCodes.ownerInstitutionId), inArray(activationCodes.ownerInstitutionId, mayOwn)) : isNull(activationCodes.ownerInstitutionId);
  const [taken] = await db
    .update(activationCodes)
    .set({ status: 'used', usedAt: sql`now()`, usedByInstitutionId: inst.id, usedByDeviceId: deviceId })
    .where(
      and(
        eq(activationCodes.lookup, lookup),
        eq(activationCodes.status, 'unused'),
        eq(activationCodes.scope, scope),
        sql`(${activationCodes.validUntil} is null or ${activationCodes.validUntil} > now())`,
        ownerAllowed,
      ),
    )
    .returning({ id: activationCodes.id, batchId: activationCodes.batchId });
  if (taken) return taken;

  const [row] = await db.select().from(activationCodes).where(eq(activationCodes.lookup, lookup));
  if (!row) throw badRequest('codeWrong');
  if (row.scope !== scope) throw badRequest(row.scope === 'device' ? 'codeIsDeviceCode' : 'codeIsInstitutionCode');
  if (row.status === 'used') throw badRequest('codeUsed');
  if (row.status === 'void') throw badRequest('codeVoid');
  if (row.validUntil && row.validUntil.getTime() <= Date.now()) throw badRequest('codeExpired', { date: row.validUntil.toISOString().slice(0, 10) });
  if (row.ownerInstitutionId != null && !mayOwn.includes(row.ownerInstitutionId)) throw badRequest('codeNotYours');
  // Unused, in scope, valid and the caller's a moment ago: a concurrent attempt took it in between.
  throw badRequest('codeUsed');
}

/** An institution redeeming; the admin side never does (the endpoints' access says institutions only). */
function redeemer(auth: Auth) {
  if (auth.kind !== 'institution' || !auth.institution) throw forbidden();
  return auth.institution;
}

/**
 * POST /base_index/use_activation_code_institution (fixed): an institution code renews the caller's own
 * term from max(now, term) by the batch's days. An overdue institution calls it with its restricted key;
 * that session then becomes a full one (absolute lifetime counted from when it was created), so the web
 * goes on to the device list without signing in again.
 */
export async function redeemInstitution(db: Tx, auth: Auth, body: CodeRedeemBody, ctx: Ctx): Promise<CodeRedeemAnswer> {
  const inst = redeemer(auth);
  const keys = keysOf(ctx.config);
  const taken = await takeCode(db, keys, body.code, 'institution', auth, null);
  const batch = await batchOf(db, taken.batchId);
  const [current] = await db.select({ term: institutions.termExpiresAt }).from(institutions).where(eq(institutions.id, inst.id)).for('update');
  const before = current?.term ?? null;
  const after = new Date(Math.max(Date.now(), before?.getTime() ?? 0) + batch.days! * DAY);
  await db.update(institutions).set({ termExpiresAt: after }).where(eq(institutions.id, inst.id));
  const [record] = await db
    .insert(activationRecords)
    .values({
      codeId: taken.id,
      batchId: batch.id,
      codeMasked: maskCode(body.code),
      scope: 'institution',
      institutionId: inst.id,
      days: batch.days,
      termBefore: before,
      termAfter: after,
      operatorKind: 'institution',
      operatorId: inst.id,
      operatorName: inst.username,
    })
    .returning({ id: activationRecords.id });
  if (auth.restricted) {
    const hours = auth.params.session_absolute_hours;
    await db
      .update(sessions)
      .set({ restricted: false, expiresAt: sql`${sessions.createdAt} + make_interval(hours => ${hours})` })
      .where(eq(sessions.id, auth.sessionId));
  }
  const { username, address } = throttleKeys(inst.id, ctx.ip);
  await clearFailures(db, username, address);
  return withAuditId({ term_expires_at: after.toISOString() }, record!.id);
}

/**
 * POST /base_index/use_activation_code_device: a device code on a device the caller owns. Days (or a
 * time package) extend the device's term from max(now, expiry); a count package adds its uses. An
 * inactive device becomes active. A device outside the caller's subtree answers "does not exist".
 */
export async function redeemDevice(db: Tx, auth: Auth, body: CodeRedeemDeviceBody, ctx: Ctx): Promise<CodeRedeemDeviceAnswer> {
  const inst = redeemer(auth);
  const [device] = await db.select().from(devices).where(eq(devices.id, body.id)).for('update');
  if (!device || device.institutionId == null || !(await isInSubtree(db, inst.path, device.institutionId))) throw notFound();
  if (device.institutionId !== inst.id) throw badRequest('codeDeviceNotOwned');
  if (device.status === 'disabled') throw badRequest('codeDeviceDisabled');

  const keys = keysOf(ctx.config);
  const taken = await takeCode(db, keys, body.code, 'device', auth, device.id);
  const batch = await batchOf(db, taken.batchId);
  const pkg = batch.packageId ? (await db.select().from(packages).where(eq(packages.id, batch.packageId)))[0] : undefined;
  const days = batch.days ?? (pkg?.kind === 'time' ? pkg.days : null);
  const uses = pkg?.kind === 'count' ? pkg.uses : null;
  const now = new Date();
  const { expiresAt, remainingUses } = extendedTerm(device, { days, uses }, now.getTime());
  const status = device.status === 'inactive' ? 'active' : device.status;
  await db
    .update(devices)
    .set({ expiresAt, remainingUses, status, activatedAt: device.activatedAt ?? now })
    .where(eq(devices.id, device.id));
  const [record] = await db
    .insert(activationRecords)
    .values({
      codeId: taken.id,
      batchId: batch.id,
      codeMasked: maskCode(body.code),
      scope: 'device',
      institutionId: inst.id,
      deviceId: device.id,
      packageId: batch.packageId,
      days,
      usesAdded: uses,
      termBefore: device.expiresAt,
      termAfter: expiresAt,
      usesBefore: device.remainingUses,
      usesAfter: remainingUses,
      operatorKind: 'institution',
      operatorId: inst.id,
      operatorName: inst.username,
    })
    .returning({ id: activationRecords.id });
  const { username, address } = throttleKeys(inst.id, ctx.ip);
  await clearFailures(db, username, address);
  return withAuditId({ status, expires_at: isoOrNull(expiresAt), remaining_uses: remainingUses }, record!.id);
}
