import { hash as digestOf, randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import {
  CHALLENGE_MINUTES,
  type LoginMfaBody,
  type MfaCodeBody,
  type MfaSetupAnswer,
  type MfaStatus,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  type RecoveryCodesAnswer,
  TOTP_DIGITS,
  TOTP_PERIOD_S,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, institutions, mfaChallenges, mfaFactors, mfaRecoveryCodes, sessions } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { hashKey, newKey } from '../../lib/crypto';
import { AppError, badRequest } from '../../lib/errors';
import { recordAudit, refusals, signInRow } from '../../lib/audit';
import { createSession, type SubjectKind, userAgentOf } from '../../lib/sessions';
import { addressKey, clearFailures, countFailure, releaseAttempt, throttledError, throttleWait } from '../../lib/throttle';
import { type Sealer, serverSealer } from '../codes';

/*
 * The second factor (trust-api.md, "Second factor"; docs/decisions.md, "Second factor"). TOTP by the
 * `otpauth` library (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either way). The secret is sealed
 * with the server key (modules/codes/key.ts, purpose `totp-secret`). No replay: the step of the last
 * accepted code is kept, and a code is accepted only by one conditional UPDATE that moves it forward,
 * so two requests with the same code (on any connections, in any processes) cannot both pass. Recovery
 * codes: 80 random bits each, stored as SHA-256 (a fast hash is enough for 80 bits: no dictionary to try,
 * 2^80 guesses), used once by one conditional UPDATE of `used_at`.
 */

export type Subject = { kind: SubjectKind; id: number };
/** Where the server key lives (the app's config). */
export type KeySource = { dataDir: string };

const SECRET_BYTES = 20;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ISSUER_FALLBACK = 'Admin console';

const sealerOf = (config: KeySource): Sealer => serverSealer(config, 'totp-secret');
const totpOf = (base32: string, label = 'account', issuer = ISSUER_FALLBACK) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S, secret: Secret.fromBase32(base32) });
const sha256 = (text: string) => digestOf('sha256', text, 'hex');

const ofSubject = <T extends { subjectKind: unknown; subjectId: unknown }>(table: T, s: Subject) => and(eq(table.subjectKind as never, s.kind), eq(table.subjectId as never, s.id));

/** What a person typed: a TOTP code (6 digits, spaces allowed), a recovery code (16 Crockford symbols, dashes and spaces allowed, O/I/L read as 0/1/1), or neither. */
export function parseCode(text: string): { kind: 'totp' | 'recovery'; code: string } | null {
  const plain = text.replace(/[\s-]/g, '');
  if (/^[0-9]{6}$/.test(plain)) return { kind: 'totp', code: plain };
  const upper = plain.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  if (upper.length === RECOVERY_CODE_LENGTH && [...upper].every((c) => CROCKFORD.includes(c))) return { kind: 'recovery', code: upper };
  return null;
}

/** A fresh recovery code as shown: four groups of four Crockford symbols (80 bits). */
export function newRecoveryCode(): string {
  let bits = 0n;
  for (const b of randomBytes(10)) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = RECOVERY_CODE_LENGTH - 1; i >= 0; i--) out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return out.match(/.{4}/g)!.join('-');
}

/** The time step a TOTP code of `secret` belongs to (now, or one step either side), or null. */
function stepOf(base32: string, code: string, now: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/**
 * A current TOTP code of the account's active secret, accepted at most once: the step moves forward in
 * one conditional UPDATE (a code of the last accepted step or an earlier one changes no row).
 */
async function acceptTotp(db: Tx, subject: Subject, code: string, config: KeySource, now: number): Promise<boolean> {
  const [factor] = await db.select({ secret: mfaFactors.secret }).from(mfaFactors).where(ofSubject(mfaFactors, subject));
  const base32 = factor?.secret ? sealerOf(config).open(factor.secret) : null;
  if (!factor?.secret || !base32) return false;
  const step = stepOf(base32, code, now);
  if (step === null) return false;
  const moved = await db
    .update(mfaFactors)
    .set({ lastStep: step })
    .where(and(ofSubject(mfaFactors, subject), eq(mfaFactors.secret, factor.secret), or(isNull(mfaFactors.lastStep), lt(mfaFactors.lastStep, step))))
    .returning({ step: mfaFactors.lastStep });
  return moved.length === 1;
}

/** A recovery code, used once: one conditional UPDATE of `used_at`. A code already used is refused by name. */
async function acceptRecovery(db: Tx, subject: Subject, code: string, now: number): Promise<boolean> {
  const codeHash = sha256(code);
  const used = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(and(ofSubject(mfaRecoveryCodes, subject), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  if (used.length === 1) return true;
  const [spent] = await db
    .select({ id: mfaRecoveryCodes.id })
    .from(mfaRecoveryCodes)
    .where(and(ofSubject(mfaRecoveryCodes, subject), eq(mfaRecoveryCodes.codeHash, codeHash), isNotNull(mfaRecoveryCodes.usedAt)));
  if (spent) throw badRequest('mfaRecoveryUsed');
  return false;
}

/**
 * The one check other modules use (sign-in's second step here; step-up's `/auth/reauth { code }`): a
 * current TOTP code of the account's active factor, or one of its unused recovery codes. Answers how it
 * passed, or null (wrong, replayed, no factor). A code of neither shape is a 400 (`mfaCodeFormat`), a
 * recovery code already used a 400 (`mfaRecoveryUsed`). What it accepts is spent at once (the TOTP step,
 * the recovery code), also when the caller's transaction later rolls back nothing else.
 */
export async function verifySecondFactor(db: Tx, subject: Subject, code: string, config: KeySource, now = Date.now()): Promise<'totp' | 'recovery' | null> {
  const parsed = parseCode(code);
  if (!parsed) throw badRequest('mfaCodeFormat');
  if (parsed.kind === 'totp') return (await acceptTotp(db, subject, parsed.code, config, now)) ? 'totp' : null;
  return (await acceptRecovery(db, subject, parsed.code, now)) ? 'recovery' : null;
}

/** Whether the account has an active second factor. */
export async function hasSecondFactor(db: Tx, subject: Subject): Promise<boolean> {
  const [row] = await db
    .select({ on: sql<boolean>`${mfaFactors.secret} is not null` })
    .from(mfaFactors)
    .where(ofSubject(mfaFactors, subject));
  return !!row?.on;
}

/**
 * A sign-in's challenge for an account with a second factor (null without one): 256 random bits, stored
 * hashed, 5 minutes. The password step's counted attempt (`release`, the throttle's reserved row) is
 * forgotten in the same transaction: one commit for both.
 */
export async function startChallenge(db: Tx, subject: Subject, release: number, now = Date.now()): Promise<string | null> {
  if (!(await hasSecondFactor(db, subject))) return null;
  const challenge = newKey();
  await db.transaction(async (tx) => {
    await tx.insert(mfaChallenges).values({ tokenHash: hashKey(challenge), subjectKind: subject.kind, subjectId: subject.id, expiresAt: new Date(now + CHALLENGE_MINUTES * 60_000) });
    await releaseAttempt(tx, release);
  });
  return challenge;
}

/** Housekeeping: challenges past their expiry (used or not) count for nothing. */
export async function purgeChallenges(db: Tx, now = Date.now()) {
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, new Date(now)));
}

/** Ten fresh recovery codes for the account, replacing any earlier ones: the codes as shown, once. */
async function replaceRecoveryCodes(db: Tx, subject: Subject): Promise<string[]> {
  await db.delete(mfaRecoveryCodes).where(ofSubject(mfaRecoveryCodes, subject));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.insert(mfaRecoveryCodes).values(codes.map((c) => ({ subjectKind: subject.kind, subjectId: subject.id, codeHash: sha256(parseCode(c)!.code) })));
  return codes;
}

/** The factor row, locked for a write. */
async function lockedFactor(db: Tx, subject: Subject) {
  const [row] = await db.select().from(mfaFactors).where(ofSubject(mfaFactors, subject)).for('update');
  return row;
}

/** GET /mfa/status. */
export async function status(db: Tx, auth: Auth): Promise<MfaStatus> {
  const subject = callerRef(auth);
  const [row] = await db.select().from(mfaFactors).where(ofSubject(mfaFactors, subject));
  const [left] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(ofSubject(mfaRecoveryCodes, subject), isNull(mfaRecoveryCodes.usedAt)));
  return {
    enabled: !!row?.secret,
    required: auth.kind === 'admin' && auth.params.mfa_required_admins === 1,
    pending: !!row?.pendingSecret,
    recovery_codes_left: row?.secret ? (left?.n ?? 0) : 0,
  };
}

/** POST /mfa/setup: a new secret, pending until `enable` (replaces a pending one); refused while a factor is on. */
export async function setup(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<MfaSetupAnswer> {
  const subject = callerRef(auth);
  const row = await lockedFactor(db, subject);
  if (row?.secret) throw badRequest('mfaAlreadyEnabled');
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  const pendingSecret = sealerOf(ctx.config).seal(secret);
  await db
    .insert(mfaFactors)
    .values({ subjectKind: subject.kind, subjectId: subject.id, pendingSecret })
    .onConflictDoUpdate({ target: [mfaFactors.subjectKind, mfaFactors.subjectId], set: { pendingSecret, updatedAt: new Date() } });
  const label = callerRef(auth).username;
  const issuer = auth.params.site_title.trim() || ISSUER_FALLBACK;
  return { secret, otpauth_url: totpOf(secret, label, issuer).toString() };
}

/**
 * POST /mfa/enable: the pending secret confirmed by a first valid code becomes the factor; ten recovery
 * codes are answered once. An admin's sessions restricted for want of a factor regain full access at once.
 */
export async function enable(db: Tx, auth: Auth, input: MfaCodeBody, ctx: Ctx): Promise<RecoveryCodesAnswer> {
  const subject = callerRef(auth);
  const parsed = parseCode(input.passcode);
  if (!parsed) throw badRequest('mfaCodeFormat');
  if (parsed.kind !== 'totp') throw badRequest('mfaTotpRequired');
  const row = await lockedFactor(db, subject);
  if (row?.secret) throw badRequest('mfaAlreadyEnabled');
  const base32 = row?.pendingSecret ? sealerOf(ctx.config).open(row.pendingSecret) : null;
  if (!row?.pendingSecret || !base32) throw badRequest('mfaNoPendingSetup');
  const step = stepOf(base32, parsed.code, Date.now());
  if (step === null) throw badRequest('mfaCodeWrong');
  const now = new Date();
  await db.update(mfaFactors).set({ secret: row.pendingSecret, pendingSecret: null, enabledAt: now, lastStep: step, updatedAt: now }).where(ofSubject(mfaFactors, subject));
  const recovery_codes = await replaceRecoveryCodes(db, subject);
  if (subject.kind === 'admin') {
    await db
      .update(sessions)
      .set({ restricted: false })
      .where(and(eq(sessions.subjectKind, 'admin'), eq(sessions.subjectId, subject.id), eq(sessions.restricted, true)));
  }
  return { recovery_codes };
}

/** The throttle's keys for a code asked of a signed-in account (routes.ts): the account, and the address in a namespace of its own. */
export const throttleKeys = (subject: Subject, ip: string) => ({ username: `mfa:${subject.kind}:${subject.id}`, address: `mfa|${addressKey(ip)}` });
/** A right code: the account's counted attempts from that address are forgotten (in the call's transaction). */
const clearCodeFailures = (db: Tx, subject: Subject, ip: string) => {
  const { username, address } = throttleKeys(subject, ip);
  return clearFailures(db, username, address);
};

/** POST /mfa/disable: with a current code or a recovery code; the factor and its recovery codes are removed. */
export async function disable(db: Tx, auth: Auth, input: MfaCodeBody, ctx: Ctx): Promise<null> {
  const subject = callerRef(auth);
  if (!parseCode(input.passcode)) throw badRequest('mfaCodeFormat');
  const row = await lockedFactor(db, subject);
  if (!row?.secret) throw badRequest('mfaNotEnabled');
  if (!(await verifySecondFactor(db, subject, input.passcode, ctx.config))) throw badRequest('mfaCodeWrong');
  await clearCodeFailures(db, subject, ctx.ip);
  await db.delete(mfaRecoveryCodes).where(ofSubject(mfaRecoveryCodes, subject));
  await db.delete(mfaFactors).where(ofSubject(mfaFactors, subject));
  return null;
}

/** POST /mfa/recovery_codes: ten new recovery codes (the old ones stop working), with a current TOTP code. */
export async function recoveryCodes(db: Tx, auth: Auth, input: MfaCodeBody, ctx: Ctx): Promise<RecoveryCodesAnswer> {
  const subject = callerRef(auth);
  const parsed = parseCode(input.passcode);
  if (!parsed) throw badRequest('mfaCodeFormat');
  if (parsed.kind !== 'totp') throw badRequest('mfaTotpRequired');
  const row = await lockedFactor(db, subject);
  if (!row?.secret) throw badRequest('mfaNotEnabled');
  if (!(await verifySecondFactor(db, subject, parsed.code, ctx.config))) throw badRequest('mfaCodeWrong');
  await clearCodeFailures(db, subject, ctx.ip);
  return { recovery_codes: await replaceRecoveryCodes(db, subject) };
}

/** The account a challenge is for: its sign-in name (the throttle's) and status. */
async function accountOf(db: Tx, subject: Subject) {
  const table = subject.kind === 'admin' ? adminUsers : institutions;
  const [row] = await db.select({ username: table.username, status: table.status }).from(table).where(eq(table.id, subject.id));
  return row;
}

const CHALLENGE_TEXT = /^[A-Za-z0-9_-]{43}$/;

/**
 * POST /login/mfa: the sign-in's second step. The challenge (its shape, then its row: unknown, used or
 * expired each a 400) and the code's shape are checked first; then everything happens in ONE transaction,
 * so that the step costs one commit: the address's throttle lock taken and the attempt judged exactly as a
 * password attempt (lib/throttle.ts, under the account's username), the challenge row locked (a concurrent
 * use of the same challenge waits, then finds it used), the code accepted (spent), the challenge marked
 * used, the session created, the account's failures cleared. A refusal inside (a wrong, replayed or spent
 * code, a challenge used meanwhile) is counted as a failure and, for a wrong code, written as a refused
 * sign-in row, and that is committed before the 400 goes out: a wrong code counts like a wrong password.
 */
export async function login(db: Tx, _auth: Auth | null, input: LoginMfaBody, ctx: Ctx): Promise<{ key: string; id: number }> {
  if (!CHALLENGE_TEXT.test(input.challenge_token)) throw badRequest('mfaChallengeUnknown');
  if (!parseCode(input.passcode)) throw badRequest('mfaCodeFormat');
  const tokenHash = hashKey(input.challenge_token);
  const [challenge] = await db.select().from(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash));
  if (!challenge || challenge.usedAt) throw badRequest('mfaChallengeUnknown');
  if (challenge.expiresAt.getTime() <= Date.now()) throw badRequest('mfaChallengeExpired');
  const subject: Subject = { kind: challenge.subjectKind, id: challenge.subjectId };
  const account = await accountOf(db, subject);
  if (!account) throw badRequest('mfaChallengeUnknown');
  if (account.status !== 1) throw badRequest(subject.kind === 'institution' ? 'institutionDisabled' : 'accountDisabled');
  const username = account.username.toLowerCase().slice(0, 64);
  const address = addressKey(ctx.ip);
  const who = { id: subject.id, username: account.username };
  const outcome = await db.transaction(async (tx): Promise<{ wait: number } | { refused: AppError } | { key: string; id: number }> => {
    const now = Date.now();
    const wait = await throttleWait(tx, username, address, now);
    if (wait > 0) return { wait };
    try {
      const [live] = await tx.select({ usedAt: mfaChallenges.usedAt, expiresAt: mfaChallenges.expiresAt }).from(mfaChallenges).where(eq(mfaChallenges.id, challenge.id)).for('update');
      if (!live || live.usedAt) throw badRequest('mfaChallengeUnknown');
      if (live.expiresAt.getTime() <= now) throw badRequest('mfaChallengeExpired');
      if (!(await verifySecondFactor(tx, subject, input.passcode, ctx.config, now))) throw badRequest('mfaCodeWrong');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await countFailure(tx, username, address, now);
      // A wrong code is a refused sign-in of a known account (the password was right): its own audit row.
      if (err.messageKey === 'mfaCodeWrong') await recordAudit(tx, signInRow(ctx, subject.kind, username, who, 'refused', 'second_factor'));
      return { refused: err };
    }
    await recordAudit(tx, signInRow(ctx, subject.kind, username, who, 'ok', null));
    await tx
      .update(mfaChallenges)
      .set({ usedAt: new Date(now) })
      .where(eq(mfaChallenges.id, challenge.id));
    // A password and a second factor just now: a re-authentication for step-up too.
    const { key } = await createSession(tx, { kind: subject.kind, subjectId: subject.id, ip: ctx.ip, userAgent: userAgentOf(ctx.req.headers), reauthenticated: true });
    if (subject.kind === 'admin')
      await tx
        .update(adminUsers)
        .set({ lastLoginAt: new Date(now) })
        .where(eq(adminUsers.id, subject.id));
    await clearFailures(tx, username, address);
    return { key, id: subject.id };
  });
  if ('wait' in outcome) {
    const admitted = refusals.admit(`sign_in|${subject.kind}|${address}`);
    if (admitted) await recordAudit(db, signInRow(ctx, subject.kind, username, null, 'refused', 'throttled', admitted.suppressed));
    throw throttledError(outcome.wait);
  }
  if ('refused' in outcome) throw outcome.refused;
  return outcome;
}

/** The audit trail's record of these writes: who and which call (the row names the account); never a secret or code. */
export const snapshot = async () => null;
