/** Activation codes: batches (grade 0): generation with its codes, the batch list and its snapshot for the audit trail. */
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatCode, type CodeBatchListQuery, type CodeBatchRow, type CodeCounts, type CodeGenerateAnswer, type CodeGenerateBody, type CodeScope, type ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { activationCodes, adminUsers, codeBatches, institutions, packages } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { notFound } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { cappedCount, likeEscape, offsetOf, sortBy, rowsOf } from '../../lib/list';
import type { CodeKeys } from './key';
import { isoOrNull } from '../../lib/time';
import { INSERT_CHUNK, keysOf, newCode, withAuditId } from './shared';

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
    createdBy: auth.kind === 'admin' ? auth.admin.id : null,
  });
  return withAuditId({ batch_no: batchNo, codes: codes.map(formatCode) }, id);
}

export const owner = alias(institutions, 'owner');
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
    valid_until: isoOrNull(b.validUntil),
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

export async function batchOf(db: Tx, id: number) {
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
