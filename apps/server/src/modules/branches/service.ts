import { and, eq, sql, type SQL } from 'drizzle-orm';
import { childGrade, type BranchApplication, type BranchApplyBody, type BranchApproveBody, type BranchApproved, type BranchListQuery, type BranchRejectBody, type ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, branchApplications, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { likeEscape, pagedList, sortBy } from '../../lib/list';
import { regionColumns, regionMatch, regionOf } from '../../lib/regions';
import { assertUsernameFree, createInstitution, inSubtree, isInSubtree } from '../institutions';
import { actorOf, raiseNotice } from '../notices';

type Stored = typeof branchApplications.$inferSelect;

const selectRows = (db: Tx) =>
  db
    .select({ a: branchApplications, applicantName: institutions.name, applicantGrade: institutions.grade, reviewer: adminUsers.username })
    .from(branchApplications)
    .innerJoin(institutions, eq(institutions.id, branchApplications.applicantId))
    .leftJoin(adminUsers, eq(adminUsers.id, branchApplications.reviewedBy));

function toRow(r: { a: Stored; applicantName: string; applicantGrade: number; reviewer: string | null }): BranchApplication {
  const { a } = r;
  return {
    id: a.id,
    applicant_id: a.applicantId,
    applicant_name: r.applicantName,
    branch_grade: childGrade(r.applicantGrade),
    name: a.name,
    contact_name: a.contactName,
    phone: a.phone,
    region: regionOf(a),
    address: a.address,
    username: a.username,
    state: a.state,
    reason: a.reason,
    institution_id: a.institutionId,
    reviewed_by: r.reviewer,
    reviewed_at: a.reviewedAt ? a.reviewedAt.toISOString() : null,
    created_at: a.createdAt.toISOString(),
  };
}

const SORT_COLUMNS = { created_at: branchApplications.createdAt, reviewed_at: branchApplications.reviewedAt, name: branchApplications.name } as const;

/** Applications of the caller's subtree (admins: all), newest first unless a sort is asked for. */
export async function list(db: Tx, auth: Auth, q: BranchListQuery): Promise<ListResult<BranchApplication>> {
  const conds: (SQL | undefined)[] = [];
  if (auth.kind === 'institution') conds.push(sql`${branchApplications.applicantId} in (select ${institutions.id} from ${institutions} where ${inSubtree(auth.institution.path)})`);
  if (q.applicant_id) {
    if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution.path, q.applicant_id))) throw forbidden();
    conds.push(eq(branchApplications.applicantId, q.applicant_id));
  }
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword.toLowerCase())}%`;
    conds.push(
      sql`(lower(${branchApplications.name}) like ${kw} or lower(${branchApplications.username}) like ${kw} or ${branchApplications.applicantId} in (select ${institutions.id} from ${institutions} where lower(${institutions.name}) like ${kw}))`,
    );
  }
  if (q.state) conds.push(eq(branchApplications.state, q.state));
  conds.push(regionMatch(q.region, branchApplications));
  const where = and(...conds);
  return pagedList(db, q, sql`from ${branchApplications} where ${where ?? sql`true`}`, async (limit, offset) =>
    (
      await selectRows(db)
        .where(where)
        .orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', branchApplications.id))
        .limit(limit)
        .offset(offset)
    ).map(toRow),
  );
}

/** An institution applies for a branch of its own; the account name must be free. */
export async function apply(db: Tx, auth: Auth, body: BranchApplyBody): Promise<{ id: number }> {
  if (auth.kind !== 'institution') throw forbidden();
  const region = regionColumns(body.region);
  await assertUsernameFree(db, body.username);
  try {
    const [row] = await db
      .insert(branchApplications)
      .values(Object.assign({ applicantId: auth.institution.id, name: body.name, contactName: body.contact_name, phone: body.phone }, region, { address: body.address, username: body.username }))
      .returning({ id: branchApplications.id });
    await raiseNotice(db, {
      kind: 'application_pending',
      thingId: row!.id,
      institutionId: auth.institution.id,
      params: { name: body.name, username: body.username, applicant: auth.institution.name },
      actor: actorOf(auth),
    });
    return { id: row!.id };
  } catch (err) {
    // Two applications for one name at once: the partial unique index lets one through.
    if (isUniqueViolation(err)) throw fieldError('username', 'usernamePending', { username: body.username });
    throw err;
  }
}

/** Takes the decision, once: the application's row if it was still pending (and is now decided), else the refusal. */
async function decide(db: Tx, auth: Auth, id: number, set: Partial<typeof branchApplications.$inferInsert>): Promise<Stored> {
  if (auth.kind !== 'admin') throw forbidden();
  const [row] = await db
    .update(branchApplications)
    .set(Object.assign({}, set, { reviewedBy: auth.admin.id, reviewedAt: new Date() }))
    .where(and(eq(branchApplications.id, id), eq(branchApplications.state, 'pending')))
    .returning();
  if (row) {
    const [applicant] = await db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, row.applicantId));
    await raiseNotice(db, {
      kind: 'application_decided',
      thingId: row.id,
      institutionId: row.applicantId,
      params: { name: row.name, username: row.username, applicant: applicant?.name ?? '', state: row.state, reason: row.reason || null },
      actor: actorOf(auth),
    });
    return row;
  }
  const [exists] = await db.select({ id: branchApplications.id }).from(branchApplications).where(eq(branchApplications.id, id));
  throw exists ? badRequest('applicationDecided') : notFound();
}

/**
 * The platform approves: in one transaction the application turns approved (a conditional update, so
 * concurrent approvals find it decided and create nothing), the branch is created under the applicant
 * by the grade rule with the applicant's term, and its login with the given or a generated password.
 */
export async function approve(db: Tx, auth: Auth, body: BranchApproveBody): Promise<BranchApproved> {
  const app = await decide(db, auth, body.id, { state: 'approved' });
  const [applicant] = await db.select().from(institutions).where(eq(institutions.id, app.applicantId));
  const created = await createInstitution(db, {
    parent: applicant!,
    name: app.name,
    username: app.username,
    password: body.password,
    contactName: app.contactName,
    phone: app.phone,
    region: { province: app.province, city: app.city, district: app.district },
    address: app.address,
    status: 'enabled',
    termExpiresAt: applicant!.termExpiresAt,
  });
  await db.update(branchApplications).set({ institutionId: created.id }).where(eq(branchApplications.id, app.id));
  return { id: app.id, institution_id: created.id, username: app.username, password: created.password };
}

/** The platform rejects, with the reason the applicant reads. */
export async function reject(db: Tx, auth: Auth, body: BranchRejectBody): Promise<null> {
  await decide(db, auth, body.id, { state: 'rejected', reason: body.reason });
  return null;
}

/** The audit trail's view of an application: the stored row. */
export async function snapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [r] = await selectRows(db).where(eq(branchApplications.id, id));
  return r ? toRow(r) : null;
}
