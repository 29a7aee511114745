import { and, asc, count, eq, gt, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  gradeFits,
  SUBTREE_LIMIT,
  type IdInput,
  type InstitutionAddBody,
  type InstitutionCreated,
  type InstitutionDetail,
  type InstitutionEditBody,
  type InstitutionGrade,
  type InstitutionExportQuery,
  type InstitutionListQuery,
  type InstitutionMoveBody,
  type InstitutionOption,
  type InstitutionPasswordBody,
  type InstitutionRow,
  type InstitutionStatusBody,
  type InstitutionSubtree,
  type InstitutionSubtreeQuery,
  type ListResult,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { devices, institutions, payouts } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { hashPassword } from '../../lib/crypto';
import { forbidden, notFound } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { type ExportColumn, exportList as exportRows, dateCell } from '../../lib/export';
import { likeEscape, orderOf, pagedList, type SortKey, sortKey } from '../../lib/list';
import { fromWhere } from '../../lib/masterdata';
import { regionColumns, regionMatch, regionName, regionOf } from '../../lib/regions';
import { endSubjectSessions } from '../../lib/sessions';
import { createInstitution, passwordFor, statusValue } from './accounts';
import { LABELS, label } from './labels';
import { inSubtree, levelsOf, lockTreeExclusive, pathOf } from './scope';
import { DAY } from '../../lib/time';

type Stored = typeof institutions.$inferSelect;
const parent = alias(institutions, 'parent');

/** The caller's scope: its own subtree (undefined for admins: everything). */
const scopeOf = (auth: Auth): SQL | undefined => (auth.kind === 'institution' ? inSubtree(auth.institution.path) : undefined);

/** Columns of a row as lists show it: the institution, its parent's name and its number of children. */
const rowSelect = {
  i: institutions,
  parentName: parent.name,
  // drizzle qualifies columns in a joined select: the correlated subquery names the outer row the same way.
  childCount: sql<number>`(select count(*)::int from ${institutions} as c where c.parent_id = ${institutions.id})`.mapWith(Number),
};
const selectRows = (db: Tx) => db.select(rowSelect).from(institutions).leftJoin(parent, eq(parent.id, institutions.parentId));

/** The term window of "expiring" (the `expiring_days` parameter) and now. */
async function termClock(_db: Tx, auth: Auth) {
  const days = auth.params.expiring_days;
  const now = new Date();
  return { now, soon: new Date(now.getTime() + days * DAY) };
}

function toRow(r: { i: Stored; parentName: string | null; childCount: number }, clock: { now: Date; soon: Date }): InstitutionRow {
  const { i } = r;
  const term = i.termExpiresAt;
  return {
    id: i.id,
    name: i.name,
    grade: i.grade as InstitutionGrade,
    parent_id: i.parentId,
    parent_name: r.parentName,
    username: i.username,
    contact_name: i.contactName,
    phone: i.phone,
    region: regionOf(i),
    address: i.address,
    status: i.status === 1 ? 'enabled' : 'disabled',
    term_expires_at: term ? term.toISOString() : null,
    overdue: !!term && term <= clock.now,
    expiring: !!term && term > clock.now && term <= clock.soon,
    child_count: r.childCount,
    created_at: i.createdAt.toISOString(),
  };
}

/**
 * An institution the caller may act on, or the refusal: admins reach every institution (a missing one
 * is "not found"); an institution reaches its own subtree (`strict`: its descendants only, not itself),
 * and anything else, missing or not, is refused alike, so ids outside the subtree tell nothing.
 */
async function reachable(db: Tx, auth: Auth, id: number, opts: { strict?: boolean; lock?: boolean } = {}): Promise<Stored> {
  const query = db.select().from(institutions).where(eq(institutions.id, id));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (auth.kind === 'admin') {
    if (!row) throw notFound();
    return row;
  }
  const own = auth.institution;
  if (!row?.path.startsWith(own.path) || (opts.strict && row.id === own.id)) throw forbidden();
  return row;
}

/** Institutions the caller may pick in filters and forms: its own subtree (every institution for admins). */
export async function options(db: Tx, auth: Auth): Promise<InstitutionOption[]> {
  const rows = await db
    .select({ id: institutions.id, name: institutions.name, grade: institutions.grade, parent_id: institutions.parentId })
    .from(institutions)
    .where(scopeOf(auth))
    .orderBy(asc(institutions.path));
  return rows.map((r) => ({ id: r.id, name: r.name, grade: r.grade as 1 | 2 | 3, parent_id: r.parent_id }));
}

const SORT_COLUMNS = { name: institutions.name, grade: institutions.grade, status: institutions.status, term_expires_at: institutions.termExpiresAt, created_at: institutions.createdAt } as const;

/**
 * The tree's top level (no filter: admins the grade-1 agents, an institution itself), or with any filter
 * the matching institutions of the caller's subtree. Grade, then name, unless a sort is asked for.
 */
async function listConditions(auth: Auth, q: InstitutionListQuery | InstitutionExportQuery, clock: { now: Date; soon: Date }): Promise<SQL | undefined> {
  const filtered = !!(q.name || q.grade || q.region || q.status || q.expiring || q.overdue);
  const conds: (SQL | undefined)[] = [scopeOf(auth)];
  if (!filtered) conds.push(auth.kind === 'institution' ? eq(institutions.id, auth.institution.id) : isNull(institutions.parentId));
  if (q.name) {
    const kw = `%${likeEscape(q.name.toLowerCase())}%`;
    conds.push(sql`(lower(${institutions.name}) like ${kw} or lower(${institutions.username}) like ${kw})`);
  }
  if (q.grade) conds.push(eq(institutions.grade, q.grade));
  conds.push(regionMatch(q.region, institutions));
  if (q.status) conds.push(eq(institutions.status, statusValue(q.status)));
  if (q.expiring) conds.push(and(gt(institutions.termExpiresAt, clock.now), lte(institutions.termExpiresAt, clock.soon)));
  if (q.overdue) conds.push(lte(institutions.termExpiresAt, clock.now));
  return and(...conds);
}

/** The requested sort, else grade then name. */
const keyOf = (q: { sort?: keyof typeof SORT_COLUMNS; order?: 'ascend' | 'descend' }): SortKey =>
  q.sort ? sortKey(SORT_COLUMNS, q, 'name', institutions.id) : { columns: [institutions.grade, institutions.name], id: institutions.id, ascending: true };

const listRows = async (db: Tx, clock: { now: Date; soon: Date }, where: SQL | undefined, order: SQL[], limit: number, offset: number) =>
  (
    await selectRows(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
  ).map((r) => toRow(r, clock));

export async function list(db: Tx, auth: Auth, q: InstitutionListQuery): Promise<ListResult<InstitutionRow>> {
  const clock = await termClock(db, auth);
  const where = await listConditions(auth, q, clock);
  return pagedList(db, q, fromWhere(institutions, where), (limit, offset) => listRows(db, clock, where, orderOf(keyOf(q)), limit, offset));
}

/** GET /institution/export: the institutions the list shows for these filters (every page), in its order, as CSV or XLSX. */
export async function exportList(db: Tx, auth: Auth, q: InstitutionExportQuery, ctx: Ctx) {
  const clock = await termClock(db, auth);
  const where = await listConditions(auth, q, clock);
  const lang = ctx.lang;
  const columns: ExportColumn<InstitutionRow>[] = [
    { title: label(LABELS.name, lang), value: (r) => r.name, width: 28 },
    { title: label(LABELS.grade, lang), value: (r) => r.grade },
    { title: label(LABELS.parent, lang), value: (r) => r.parent_name ?? '', width: 28 },
    { title: label(LABELS.username, lang), value: (r) => r.username, width: 16 },
    { title: label(LABELS.contact, lang), value: (r) => r.contact_name, width: 14 },
    { title: label(LABELS.phone, lang), value: (r) => r.phone, width: 16 },
    { title: label(LABELS.region, lang), value: (r) => regionName(r.region, lang), width: 24 },
    { title: label(LABELS.address, lang), value: (r) => r.address, width: 30 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[r.status], lang) },
    { title: label(LABELS.termExpiresAt, lang), value: (r) => dateCell(r.term_expires_at), width: 20 },
    { title: label(LABELS.children, lang), value: (r) => r.child_count },
    { title: label(LABELS.createdAt, lang), value: (r) => dateCell(r.created_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'institutions',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: keyOf(q),
    fetch: (w, order, limit) => listRows(db, clock, w, order, limit, 0),
    count: fromWhere(institutions, where),
  });
}

/** The descendants of some institutions of the caller's subtree, down to `depth` levels below each. */
export async function subtree(db: Tx, auth: Auth, q: InstitutionSubtreeQuery): Promise<InstitutionSubtree> {
  const roots = await db
    .select({ id: institutions.id, path: institutions.path })
    .from(institutions)
    .where(and(inArray(institutions.id, q.ids), scopeOf(auth)));
  if (roots.length !== q.ids.length) throw auth.kind === 'admin' ? notFound() : forbidden();
  const level = sql`(length(${institutions.path}) - length(replace(${institutions.path}, '/', '')) - 1)`;
  const below = or(...roots.map((r) => and(inSubtree(r.path), ne(institutions.id, r.id), sql`${level} <= ${levelsOf(r.path) + q.depth}`)));
  const clock = await termClock(db, auth);
  const rows = await selectRows(db)
    .where(below)
    .orderBy(asc(level), asc(institutions.grade), asc(institutions.name), asc(institutions.id))
    .limit(SUBTREE_LIMIT + 1);
  return { list: rows.slice(0, SUBTREE_LIMIT).map((r) => toRow(r, clock)), capped: rows.length > SUBTREE_LIMIT };
}

/** One institution with its subtree's counts: children, descendants, devices, open (pending) payouts. */
export async function detail(db: Tx, auth: Auth, { id }: IdInput): Promise<InstitutionDetail> {
  const target = await reachable(db, auth, id);
  const inTree = sql`in (select ${institutions.id} from ${institutions} where ${inSubtree(target.path)})`;
  const [[row], [children], [descendants], [owned], [open]] = await Promise.all([
    selectRows(db).where(eq(institutions.id, id)),
    db.select({ n: count() }).from(institutions).where(eq(institutions.parentId, id)),
    db
      .select({ n: count() })
      .from(institutions)
      .where(and(inSubtree(target.path), ne(institutions.id, id))),
    db.select({ n: count() }).from(devices).where(sql`${devices.institutionId} ${inTree}`),
    db
      .select({ n: count() })
      .from(payouts)
      .where(and(eq(payouts.status, 'pending'), sql`${payouts.institutionId} ${inTree}`)),
  ]);
  return Object.assign(toRow(row!, await termClock(db, auth)), {
    counts: { children: children!.n, descendants: descendants!.n, devices: owned!.n, open_payouts: open!.n },
  });
}

const termOf = (v: string | null | undefined) => (v ? new Date(v) : null);

/**
 * Admins: a grade-1 agent (no parent) or a child of any institution, with any term (left out: the
 * parent's). Institutions: their own direct child, with their own term.
 */
export async function add(db: Tx, auth: Auth, body: InstitutionAddBody): Promise<InstitutionCreated> {
  let parentRow: Stored | null;
  let term: Date | null;
  if (auth.kind === 'institution') {
    const own = auth.institution;
    if (body.parent_id != null && body.parent_id !== own.id) throw forbidden();
    if (body.term_expires_at !== undefined) throw fieldError('term_expires_at', 'termAdminOnly');
    parentRow = await reachable(db, auth, own.id);
    term = parentRow.termExpiresAt;
  } else {
    parentRow = null;
    if (body.parent_id != null) {
      [parentRow = null] = await db.select().from(institutions).where(eq(institutions.id, body.parent_id));
      if (!parentRow) throw fieldError('parent_id', 'institutionMissing');
    }
    term = body.term_expires_at !== undefined ? termOf(body.term_expires_at) : (parentRow?.termExpiresAt ?? null);
  }
  return createInstitution(db, {
    parent: parentRow,
    name: body.name,
    username: body.username,
    password: body.password,
    contactName: body.contact_name,
    phone: body.phone,
    region: regionColumns(body.region),
    address: body.address,
    status: body.status,
    termExpiresAt: term,
  });
}

/** Name, contact, phone, region and address of the caller's own subtree; the term (admins only). */
export async function edit(db: Tx, auth: Auth, body: InstitutionEditBody): Promise<null> {
  await reachable(db, auth, body.id, { lock: true });
  if (auth.kind === 'institution' && body.term_expires_at !== undefined) throw fieldError('term_expires_at', 'termAdminOnly');
  await db
    .update(institutions)
    .set({
      name: body.name,
      contactName: body.contact_name,
      phone: body.phone,
      address: body.address,
      ...regionColumns(body.region),
      ...(body.term_expires_at !== undefined ? { termExpiresAt: termOf(body.term_expires_at) } : {}),
    })
    .where(eq(institutions.id, body.id));
  return null;
}

/** Enable / disable (admins: any; institutions: their descendants). Disabling ends its sessions at once. */
export async function setStatus(db: Tx, auth: Auth, body: InstitutionStatusBody): Promise<null> {
  await reachable(db, auth, body.id, { strict: true, lock: true });
  await db
    .update(institutions)
    .set({ status: statusValue(body.status) })
    .where(eq(institutions.id, body.id));
  if (body.status === 'disabled') await endSubjectSessions(db, 'institution', body.id);
  return null;
}

/** A new password, given or generated (answered once); its sessions end. */
export async function resetPassword(db: Tx, auth: Auth, body: InstitutionPasswordBody): Promise<{ password: string | null }> {
  await reachable(db, auth, body.id, { strict: true, lock: true });
  const { password, generated } = await passwordFor(db, body.password);
  await db
    .update(institutions)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(institutions.id, body.id));
  await endSubjectSessions(db, 'institution', body.id);
  return { password: generated ? password : null };
}

/**
 * Admins: the institution and its whole subtree under another parent (null: the top, for grade 1),
 * when the grade rule allows it; never under itself or its own descendant. One statement rewrites
 * the subtree's paths, under the tree's exclusive lock.
 */
export async function move(db: Tx, auth: Auth, body: InstitutionMoveBody): Promise<null> {
  if (auth.kind !== 'admin') throw forbidden();
  await lockTreeExclusive(db);
  const target = await reachable(db, auth, body.id, { lock: true });
  let newParent: Stored | null = null;
  if (body.parent_id != null) {
    [newParent = null] = await db.select().from(institutions).where(eq(institutions.id, body.parent_id));
    if (!newParent) throw fieldError('parent_id', 'institutionMissing');
    if (newParent.path.startsWith(target.path)) throw fieldError('parent_id', 'moveIntoOwnSubtree');
  }
  if (!gradeFits(target.grade, newParent?.grade ?? null)) throw fieldError('parent_id', 'gradeRule');
  if ((newParent?.id ?? null) === target.parentId) return null;
  const newPath = pathOf(newParent?.path ?? null, target.id);
  await db
    .update(institutions)
    .set({ path: sql`${newPath} || substr(${institutions.path}, ${target.path.length + 1})` })
    .where(inSubtree(target.path));
  await db
    .update(institutions)
    .set({ parentId: newParent?.id ?? null })
    .where(eq(institutions.id, target.id));
  return null;
}

/** The audit trail's view of an institution: its stored row without the password hash. */
export async function snapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [r] = await db.select().from(institutions).where(eq(institutions.id, id));
  if (!r) return null;
  return {
    id: r.id,
    name: r.name,
    grade: r.grade,
    parent_id: r.parentId,
    path: r.path,
    username: r.username,
    contact_name: r.contactName,
    phone: r.phone,
    province: r.province,
    city: r.city,
    district: r.district,
    address: r.address,
    status: r.status,
    term_expires_at: r.termExpiresAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
  };
}
