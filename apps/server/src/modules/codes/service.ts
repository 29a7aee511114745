import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  CROCKFORD,
  CODE_LENGTH,
  formatCode,
  maskCode,
  type ActivationRecordExportQuery,
  type ActivationRecordListQuery,
  type ActivationRecordRow,
  type CodeAssignBody,
  type CodeBatchListQuery,
  type CodeBatchRow,
  type CodeCountAnswer,
  type CodeCounts,
  type CodeExportBody,
  type CodeGenerateAnswer,
  type CodeGenerateBody,
  type CodeListExportQuery,
  type CodeListQuery,
  type CodeRedeemAnswer,
  type CodeRedeemBody,
  type CodeRedeemDeviceAnswer,
  type CodeRedeemDeviceBody,
  type CodeRow,
  type CodeScope,
  type CodeStatus,
  type Lang,
  type ListResult,
} from '@app/contract';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { activationCodes, activationRecords, adminUsers, codeBatches, devices, institutions, packages, sessions } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { type AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows, sendExport } from '../../lib/export';
import { fieldError } from '../../lib/form';
import { cappedCount, likeEscape, offsetOf, orderOf, sortBy, sortKey, type SortKey } from '../../lib/list';
import { addressKey, clearFailures } from '../../lib/throttle';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { type CodeKeys, codeKeys } from './key';
import { LABELS, label } from './labels';

/*
 * Activation codes: generation (grade 0), the lists, void, assignment to an institution, export of a
 * batch in full, and redemption by institutions (their own term; a device they own). A code is redeemed
 * exactly once: one conditional UPDATE (status unused, not past valid_until, the caller may use it) in
 * the same transaction as the term change and the activation record; when it changes no row, the row is
 * read again to say why (wrong, used, void, expired, other scope, other owner). Failed attempts are
 * throttled per (institution, address) and per address before the handler runs (routes.ts).
 */

const DAY = 86_400_000;
/** The most rows one export writes. */
/** Codes per INSERT statement (7 parameters each, far below PostgreSQL's 65 535). */
const INSERT_CHUNK = 1000;

const keysOf = (config: Pick<Config, 'dataDir' | 'codeKey'>): CodeKeys => codeKeys(config);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/** 80 bits from the CSPRNG as 16 Crockford symbols. */
export function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = CODE_LENGTH - 1; i >= 0; i--) out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

/** A sealed code as lists show it; a code sealed under another key shows as unreadable. */
const maskedOf = (keys: CodeKeys, sealed: string) => {
  const code = keys.open(sealed);
  return code ? maskCode(code) : '????-****-****-????';
};

/** Where a code stands now (expired: unused past valid_until). */
function statusOf(status: 'unused' | 'used' | 'void', validUntil: Date | null, now = Date.now()): CodeStatus {
  return status === 'unused' && validUntil && validUntil.getTime() <= now ? 'expired' : status;
}
const unusedNow = sql`(${activationCodes.status} = 'unused' and (${activationCodes.validUntil} is null or ${activationCodes.validUntil} > now()))`;
const expiredNow = sql`(${activationCodes.status} = 'unused' and ${activationCodes.validUntil} <= now())`;
function statusCondition(status: CodeStatus): SQL {
  if (status === 'unused') return unusedNow;
  if (status === 'expired') return expiredNow;
  return eq(activationCodes.status, status);
}

/**
 * Answers carry the record's id for the audit trail (the registrar reads `id`) without showing it on the
 * wire: the fixed answers (`{ batch_no, codes }`, `{ term_expires_at }`) stay exactly what device-api.md says.
 */
function withAuditId<T extends object>(answer: T, id: number): T {
  Object.defineProperty(answer, 'id', { value: id, enumerable: false });
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Batches and codes (grade 0)
// ---------------------------------------------------------------------------------------------

async function livePackage(db: Tx, id: number) {
  const [p] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, id), isNull(packages.deletedAt)));
  if (!p) throw fieldError('package_id', 'codePackageMissing');
  return p;
}

/** `AC<yyyymmdd>-<id>`: the batch's creation day (UTC) and its id, unique with it. */
const batchNoOf = (id: number, at: Date) => `AC${at.toISOString().slice(0, 10).replace(/-/g, '')}-${String(id).padStart(4, '0')}`;

/**
 * Inserts `count` new codes into a batch: fresh codes until that many rows went in (a lookup value
 * already taken, which 80 random bits make all but impossible, is simply drawn again).
 */
export async function insertCodes(
  db: Tx,
  keys: CodeKeys,
  batch: { id: number; scope: CodeScope; validUntil: Date | null; ownerInstitutionId?: number | null; createdAt?: Date },
  count: number,
): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const want = Math.min(INSERT_CHUNK, count - out.length);
    const fresh = new Map<string, string>();
    while (fresh.size < want) {
      const code = newCode();
      fresh.set(keys.lookup(code), code);
    }
    const inserted = await db
      .insert(activationCodes)
      .values(
        [...fresh].map(([lookup, code]) => ({
          batchId: batch.id,
          lookup,
          sealed: keys.seal(code),
          scope: batch.scope,
          validUntil: batch.validUntil,
          ownerInstitutionId: batch.ownerInstitutionId ?? null,
          createdAt: batch.createdAt ?? new Date(),
        })),
      )
      .onConflictDoNothing({ target: activationCodes.lookup })
      .returning({ lookup: activationCodes.lookup });
    for (const r of inserted) out.push(fresh.get(r.lookup)!);
  }
  return out;
}

/** A new batch row (its number from its id) and its codes. */
export async function createBatch(
  db: Tx,
  keys: CodeKeys,
  input: {
    scope: CodeScope;
    days: number | null;
    packageId: number | null;
    count: number;
    validUntil: Date | null;
    remark: string;
    createdBy: number | null;
    ownerInstitutionId?: number | null;
    createdAt?: Date;
  },
) {
  const [seq] = rowsOf<{ id: number }>(await db.execute(sql`select nextval(pg_get_serial_sequence('code_batches', 'id'))::int as id`));
  const id = Number(seq!.id);
  const createdAt = input.createdAt ?? new Date();
  const batchNo = batchNoOf(id, createdAt);
  await db.insert(codeBatches).values({
    id,
    batchNo,
    scope: input.scope,
    days: input.days,
    packageId: input.packageId,
    count: input.count,
    validUntil: input.validUntil,
    remark: input.remark,
    ownerInstitutionId: input.ownerInstitutionId ?? null,
    createdBy: input.createdBy,
    createdAt,
  });
  const codes = await insertCodes(db, keys, { id, scope: input.scope, validUntil: input.validUntil, ownerInstitutionId: input.ownerInstitutionId, createdAt }, input.count);
  return { id, batchNo, codes };
}

/** POST /activation_code/generate (fixed): a batch of up to 10 000 codes, answered once in full. */
export async function generate(db: Tx, auth: Auth, body: CodeGenerateBody, ctx: Ctx): Promise<CodeGenerateAnswer> {
  if (body.package_id != null) await livePackage(db, body.package_id);
  const { id, batchNo, codes } = await createBatch(db, keysOf(ctx.config), {
    scope: body.scope,
    days: body.days ?? null,
    packageId: body.package_id ?? null,
    count: body.count,
    validUntil: body.valid_until ? new Date(body.valid_until) : null,
    remark: body.remark,
    createdBy: auth.admin?.id ?? null,
  });
  return withAuditId({ batch_no: batchNo, codes: codes.map(formatCode) }, id);
}

const owner = alias(institutions, 'owner');
const countsSql = sql<CodeCounts>`(select json_build_object(
    'unused', count(*) filter (where c.status = 'unused' and (c.valid_until is null or c.valid_until > now())),
    'expired', count(*) filter (where c.status = 'unused' and c.valid_until <= now()),
    'used', count(*) filter (where c.status = 'used'),
    'void', count(*) filter (where c.status = 'void'))
  from ${activationCodes} c where c.batch_id = "code_batches"."id")`;

const BATCH_SORTS = { created_at: codeBatches.createdAt, count: codeBatches.count } as const;

function batchConditions(q: Partial<CodeBatchListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword)}%`;
    conds.push(sql`(${codeBatches.batchNo} ilike ${kw} or ${codeBatches.remark} ilike ${kw})`);
  }
  if (q.scope) conds.push(eq(codeBatches.scope, q.scope));
  if (q.owner_institution_id) conds.push(eq(codeBatches.ownerInstitutionId, q.owner_institution_id));
  return and(...conds);
}

async function batchRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<CodeBatchRow[]> {
  const rows = await db
    .select({ b: codeBatches, packageName: packages.name, ownerName: owner.name, createdBy: adminUsers.username, counts: countsSql })
    .from(codeBatches)
    .leftJoin(packages, eq(packages.id, codeBatches.packageId))
    .leftJoin(owner, eq(owner.id, codeBatches.ownerInstitutionId))
    .leftJoin(adminUsers, eq(adminUsers.id, codeBatches.createdBy))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ b, packageName, ownerName, createdBy, counts }) => ({
    id: b.id,
    batch_no: b.batchNo,
    scope: b.scope,
    days: b.days,
    package_id: b.packageId,
    package_name: packageName ?? null,
    count: b.count,
    valid_until: iso(b.validUntil),
    remark: b.remark,
    owner_institution_id: b.ownerInstitutionId,
    owner_institution_name: ownerName ?? null,
    created_by: createdBy ?? '',
    created_at: b.createdAt.toISOString(),
    unused: Number(counts?.unused ?? 0),
    used: Number(counts?.used ?? 0),
    void: Number(counts?.void ?? 0),
    expired: Number(counts?.expired ?? 0),
  }));
}

/** GET /activation_code/batches: newest first, with the count of codes in each state. */
export async function batches(db: Tx, _auth: Auth, q: CodeBatchListQuery): Promise<ListResult<CodeBatchRow>> {
  const where = batchConditions(q);
  const [list, count] = await Promise.all([
    batchRows(db, where, sortBy(BATCH_SORTS, q, 'created_at', codeBatches.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${codeBatches} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

async function batchOf(db: Tx, id: number) {
  const [b] = await db.select().from(codeBatches).where(eq(codeBatches.id, id));
  if (!b) throw notFound();
  return b;
}

/** The audit trail's view of a batch: its row and the count of codes in each state (never a code). */
export async function snapshot(db: Tx, id: number | null): Promise<CodeBatchRow | null> {
  if (id == null) return null;
  const [row] = await batchRows(db, eq(codeBatches.id, id), [asc(codeBatches.id)], 1, 0);
  return row ?? null;
}

const usedInst = alias(institutions, 'used_inst');
const CODE_SORTS = { created_at: activationCodes.createdAt, used_at: activationCodes.usedAt, valid_until: activationCodes.validUntil } as const;

function codeConditions(q: Partial<CodeListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.batch_id) conds.push(eq(activationCodes.batchId, q.batch_id));
  if (q.scope) conds.push(eq(activationCodes.scope, q.scope));
  if (q.status) conds.push(statusCondition(q.status));
  if (q.owner_institution_id) conds.push(eq(activationCodes.ownerInstitutionId, q.owner_institution_id));
  return and(...conds);
}

/** Codes as the list shows them: masked. */
async function codeRows(db: Tx, keys: CodeKeys, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<CodeRow[]> {
  const rows = await db
    .select({
      c: activationCodes,
      batchNo: codeBatches.batchNo,
      days: codeBatches.days,
      packageId: codeBatches.packageId,
      packageName: packages.name,
      ownerName: owner.name,
      usedName: usedInst.name,
      deviceSerial: devices.serial,
    })
    .from(activationCodes)
    .innerJoin(codeBatches, eq(codeBatches.id, activationCodes.batchId))
    .leftJoin(packages, eq(packages.id, codeBatches.packageId))
    .leftJoin(owner, eq(owner.id, activationCodes.ownerInstitutionId))
    .leftJoin(usedInst, eq(usedInst.id, activationCodes.usedByInstitutionId))
    .leftJoin(devices, eq(devices.id, activationCodes.usedByDeviceId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const now = Date.now();
  return rows.map(({ c, ...r }) => ({
    id: c.id,
    batch_id: c.batchId,
    batch_no: r.batchNo,
    code: maskedOf(keys, c.sealed),
    scope: c.scope,
    days: r.days,
    package_id: r.packageId,
    package_name: r.packageName ?? null,
    status: statusOf(c.status, c.validUntil, now),
    owner_institution_id: c.ownerInstitutionId,
    owner_institution_name: r.ownerName ?? null,
    valid_until: iso(c.validUntil),
    used_at: iso(c.usedAt),
    used_by_institution_id: c.usedByInstitutionId,
    used_by_institution_name: r.usedName ?? null,
    used_by_device_id: c.usedByDeviceId,
    used_by_device_serial: r.deviceSerial ?? null,
    created_at: c.createdAt.toISOString(),
  }));
}

/** GET /activation_code/list: codes masked, filtered by batch, scope, status and owner. */
export async function list(db: Tx, _auth: Auth, q: CodeListQuery, ctx: Ctx): Promise<ListResult<CodeRow>> {
  const where = codeConditions(q);
  const [list, count] = await Promise.all([
    codeRows(db, keysOf(ctx.config), where, sortBy(CODE_SORTS, q, 'created_at', activationCodes.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${activationCodes} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

/** GET /activation_code/list_export: the filtered codes, masked as the list shows them, in its order, as CSV or XLSX. */
export async function exportList(db: Tx, _auth: Auth, q: CodeListExportQuery, ctx: Ctx) {
  const keys = keysOf(ctx.config);
  const where = codeConditions(q);
  const lang = ctx.lang;
  const date = (v: string | null) => (v ? new Date(v) : null);
  const columns: ExportColumn<CodeRow>[] = [
    { title: label(LABELS.codeMasked, lang), value: (r) => r.code, width: 22 },
    { title: label(LABELS.batch, lang), value: (r) => r.batch_no, width: 18 },
    { title: label(LABELS.scope, lang), value: (r) => label(LABELS.scopes[r.scope], lang) },
    { title: label(LABELS.grant, lang), value: (r) => grantText(lang, r.days, r.package_name), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[r.status], lang) },
    { title: label(LABELS.owner, lang), value: (r) => r.owner_institution_name ?? label(LABELS.platform, lang), width: 28 },
    { title: label(LABELS.validUntil, lang), value: (r) => date(r.valid_until), width: 20 },
    { title: label(LABELS.usedBy, lang), value: (r) => r.used_by_device_serial ?? r.used_by_institution_name ?? '', width: 28 },
    { title: label(LABELS.usedAt, lang), value: (r) => date(r.used_at), width: 20 },
    { title: label(LABELS.created, lang), value: (r) => date(r.created_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'activation-codes',
    sheet: label(LABELS.sheetCodes, lang),
    columns,
    where,
    key: sortKey(CODE_SORTS, q, 'created_at', activationCodes.id),
    fetch: (w, order, limit) => codeRows(db, keys, w, order, limit, 0),
    count: sql`from ${activationCodes} where ${where ?? sql`true`}`,
  });
}

/** POST /activation_code/void: unused codes of a batch (the selected ones, or all) become void. */
export async function voidCodes(db: Tx, _auth: Auth, body: { id: number; code_ids?: number[] }): Promise<CodeCountAnswer> {
  await batchOf(db, body.id);
  if (body.code_ids && !body.code_ids.length) throw badRequest('codeNothingToVoid');
  const voided = await db
    .update(activationCodes)
    .set({ status: 'void', voidedAt: new Date() })
    .where(and(eq(activationCodes.batchId, body.id), eq(activationCodes.status, 'unused'), body.code_ids ? inArray(activationCodes.id, body.code_ids) : undefined))
    .returning({ id: activationCodes.id });
  if (!voided.length) throw badRequest('codeNothingToVoid');
  return { count: voided.length };
}

/** POST /activation_code/assign: the batch's unused codes go to an institution to sell (null: back to the platform). */
export async function assign(db: Tx, _auth: Auth, body: CodeAssignBody): Promise<CodeCountAnswer> {
  await batchOf(db, body.id);
  if (body.institution_id != null) {
    const [inst] = await db.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, body.institution_id));
    if (!inst) throw fieldError('institution_id', 'institutionMissing');
  }
  const moved = await db
    .update(activationCodes)
    .set({ ownerInstitutionId: body.institution_id })
    .where(and(eq(activationCodes.batchId, body.id), eq(activationCodes.status, 'unused')))
    .returning({ id: activationCodes.id });
  if (!moved.length) throw badRequest('codeNothingToAssign');
  await db.update(codeBatches).set({ ownerInstitutionId: body.institution_id }).where(eq(codeBatches.id, body.id));
  return { count: moved.length };
}

/** What a batch's codes grant, as the files say it. */
const grantText = (lang: Lang, days: number | null, packageName: string | null) => (days != null ? label(LABELS.days, lang, days) : (packageName ?? ''));

/**
 * POST /activation_code/export: every code of a batch in full, with its state, as CSV or XLSX. Audited
 * (the registrar writes the row in this call's transaction). Refused when the codes cannot be opened
 * with this server's key (a changed CODE_KEY or code.key), before anything is sent.
 */
export async function exportBatch(db: Tx, _auth: Auth, body: CodeExportBody, ctx: Ctx) {
  const keys = keysOf(ctx.config);
  const batch = await batchOf(db, body.id);
  const pkg = batch.packageId ? (await db.select({ name: packages.name }).from(packages).where(eq(packages.id, batch.packageId)))[0] : undefined;
  const rows = await db
    .select({ c: activationCodes, ownerName: owner.name, usedName: usedInst.name, deviceSerial: devices.serial })
    .from(activationCodes)
    .leftJoin(owner, eq(owner.id, activationCodes.ownerInstitutionId))
    .leftJoin(usedInst, eq(usedInst.id, activationCodes.usedByInstitutionId))
    .leftJoin(devices, eq(devices.id, activationCodes.usedByDeviceId))
    .where(eq(activationCodes.batchId, batch.id))
    .orderBy(asc(activationCodes.id));
  const opened = rows.map((r) => Object.assign({}, r, { code: keys.open(r.c.sealed) }));
  if (opened.some((r) => r.code == null)) throw badRequest('codeKeyMismatch');
  const lang = ctx.lang;
  const now = Date.now();
  const columns: ExportColumn<(typeof opened)[number]>[] = [
    { title: label(LABELS.code, lang), value: (r) => formatCode(r.code!), width: 22 },
    { title: label(LABELS.batch, lang), value: () => batch.batchNo, width: 18 },
    { title: label(LABELS.scope, lang), value: () => label(LABELS.scopes[batch.scope], lang) },
    { title: label(LABELS.grant, lang), value: () => grantText(lang, batch.days, pkg?.name ?? null), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[statusOf(r.c.status, r.c.validUntil, now)], lang) },
    { title: label(LABELS.owner, lang), value: (r) => r.ownerName ?? label(LABELS.platform, lang), width: 28 },
    { title: label(LABELS.validUntil, lang), value: (r) => r.c.validUntil, width: 20 },
    { title: label(LABELS.usedBy, lang), value: (r) => r.deviceSerial ?? r.usedName ?? '', width: 28 },
    { title: label(LABELS.usedAt, lang), value: (r) => r.c.usedAt, width: 20 },
  ];
  return sendExport(ctx.reply, { format: body.format, filename: `activation-codes-${batch.batchNo}`, sheet: label(LABELS.sheetCodes, lang), columns, rows: opened });
}

// ---------------------------------------------------------------------------------------------
// Redemption
// ---------------------------------------------------------------------------------------------

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
  const inst = auth.institution!;
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
    const hours = auth.params?.session_absolute_hours ?? 168;
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
  const expiresAt = days ? new Date(Math.max(now.getTime(), device.expiresAt?.getTime() ?? 0) + days * DAY) : device.expiresAt;
  const remainingUses = uses ? (device.remainingUses ?? 0) + uses : device.remainingUses;
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
  return withAuditId({ status, expires_at: iso(expiresAt), remaining_uses: remainingUses }, record!.id);
}

// ---------------------------------------------------------------------------------------------
// Activation records (grades 0-3, scoped)
// ---------------------------------------------------------------------------------------------

const recordInst = alias(institutions, 'record_inst');

async function recordConditions(db: Tx, auth: Auth, q: Partial<ActivationRecordListQuery>): Promise<SQL | undefined> {
  const conds: (SQL | undefined)[] = [];
  if (auth.kind === 'institution') conds.push(sql`${activationRecords.institutionId} in ${institutionSubtreeIds(auth.institution!.path)}`);
  if (q.institution_id) {
    if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution!.path, q.institution_id))) throw forbidden();
    conds.push(eq(activationRecords.institutionId, q.institution_id));
  }
  if (q.scope) conds.push(eq(activationRecords.scope, q.scope));
  if (q.date_from) conds.push(gte(activationRecords.createdAt, new Date(`${q.date_from}T00:00:00Z`)));
  if (q.date_to) conds.push(lt(activationRecords.createdAt, new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + DAY)));
  return and(...conds);
}

async function recordRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<ActivationRecordRow[]> {
  const rows = await db
    .select({ r: activationRecords, batchNo: codeBatches.batchNo, institutionName: recordInst.name, deviceSerial: devices.serial, packageName: packages.name })
    .from(activationRecords)
    .innerJoin(codeBatches, eq(codeBatches.id, activationRecords.batchId))
    .innerJoin(recordInst, eq(recordInst.id, activationRecords.institutionId))
    .leftJoin(devices, eq(devices.id, activationRecords.deviceId))
    .leftJoin(packages, eq(packages.id, activationRecords.packageId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ r, ...x }) => ({
    id: r.id,
    code: r.codeMasked,
    batch_no: x.batchNo,
    scope: r.scope,
    institution_id: r.institutionId,
    institution_name: x.institutionName,
    device_id: r.deviceId,
    device_serial: x.deviceSerial ?? null,
    package_id: r.packageId,
    package_name: x.packageName ?? null,
    days: r.days,
    uses_added: r.usesAdded,
    term_before: iso(r.termBefore),
    term_after: iso(r.termAfter),
    uses_before: r.usesBefore,
    uses_after: r.usesAfter,
    operator_name: r.operatorName,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Newest first, unless the oldest first is asked for. */
const recordKey = (q: { sort?: string; order?: 'ascend' | 'descend' }): SortKey => ({
  columns: [activationRecords.createdAt],
  id: activationRecords.id,
  ascending: q.sort === 'created_at' && q.order === 'ascend',
});

/** GET /activation_record/list: the caller's subtree (everything for the platform), newest first. */
export async function records(db: Tx, auth: Auth, q: ActivationRecordListQuery): Promise<ListResult<ActivationRecordRow>> {
  const where = await recordConditions(db, auth, q);
  const [list, count] = await Promise.all([recordRows(db, where, orderOf(recordKey(q)), q.limit, offsetOf(q)), cappedCount(db, sql`from ${activationRecords} where ${where ?? sql`true`}`)]);
  return { list, ...count };
}

/** The audit trail's view of an activation record. */
export async function recordSnapshot(db: Tx, id: number | null): Promise<ActivationRecordRow | null> {
  if (id == null) return null;
  const [row] = await recordRows(db, eq(activationRecords.id, id), [asc(activationRecords.id)], 1, 0);
  return row ?? null;
}

/** GET /activation_record/export: the filtered records, in the list's order, as CSV or XLSX (streamed). */
export async function recordsExport(db: Tx, auth: Auth, q: ActivationRecordExportQuery, ctx: Ctx) {
  const where = await recordConditions(db, auth, q);
  const lang = ctx.lang;
  const date = (v: string | null) => (v ? new Date(v) : null);
  const columns: ExportColumn<ActivationRecordRow>[] = [
    { title: label(LABELS.time, lang), value: (r) => date(r.created_at), width: 20 },
    { title: label(LABELS.codeMasked, lang), value: (r) => r.code, width: 22 },
    { title: label(LABELS.batch, lang), value: (r) => r.batch_no, width: 18 },
    { title: label(LABELS.scope, lang), value: (r) => label(LABELS.scopes[r.scope], lang) },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 28 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial ?? '', width: 14 },
    { title: label(LABELS.grant, lang), value: (r) => r.package_name ?? (r.days != null ? label(LABELS.days, lang, r.days) : ''), width: 20 },
    { title: label(LABELS.termBefore, lang), value: (r) => date(r.term_before), width: 20 },
    { title: label(LABELS.termAfter, lang), value: (r) => date(r.term_after), width: 20 },
    { title: label(LABELS.usesBefore, lang), value: (r) => r.uses_before },
    { title: label(LABELS.usesAfter, lang), value: (r) => r.uses_after },
    { title: label(LABELS.operator, lang), value: (r) => r.operator_name, width: 16 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'activation-records',
    sheet: label(LABELS.sheetRecords, lang),
    columns,
    where,
    key: recordKey(q),
    fetch: (w, order, limit) => recordRows(db, w, order, limit, 0),
    count: sql`from ${activationRecords} where ${where ?? sql`true`}`,
  });
}
