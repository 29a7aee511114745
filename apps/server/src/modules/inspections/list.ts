import { and, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { InspectionExportQuery, InspectionListQuery, InspectionRisk, InspectionRow, L10n, ListResult, SystemLevel } from '@app/contract';
import type { Tx } from '../../db/client';
import { devices, doctors, endUsers, inspections, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { isoText, likeEscape, orderOf, type SortKey } from '../../lib/list';
import { type Bind, bound, inline } from '../../db/shaped';
import { NO_TOTAL, ShapedList, withoutTotal } from '../../lib/shaped-list';
import { isInSubtree } from '../institutions';
import { LABELS, label } from './labels';
import { DAY } from '../../lib/time';
import { scopeOf } from './scope';

/*
 * The inspection list and its export: the caller's subtree (everything for the platform), filtered, newest
 * first, with each inspection's headline (worst system level, top risk: generated columns kept by
 * PostgreSQL from the stored analysis).
 */

/** An institution filter must lie in an institution caller's subtree. */
async function assertInstitution(db: Tx, auth: Auth, q: Partial<InspectionListQuery>) {
  if (q.institution_id && auth.kind === 'institution' && !(await isInSubtree(db, auth.institution.path, q.institution_id))) throw forbidden();
}

/** The list's filters in the caller's scope, each value bound by `bind` (db/shaped.ts). */
function listConditions(auth: Auth, q: Partial<InspectionListQuery>, bind: Bind): SQL | undefined {
  const conds: (SQL | undefined)[] = [scopeOf(auth, bind)];
  if (q.institution_id) conds.push(eq(inspections.institutionId, bind('institution', q.institution_id)));
  if (q.device_id) conds.push(eq(inspections.deviceId, bind('device', q.device_id)));
  if (q.doctor_id) conds.push(eq(inspections.doctorId, bind('doctor', q.doctor_id)));
  if (q.user_id) conds.push(eq(inspections.endUserId, bind('user', q.user_id)));
  if (q.keyword) conds.push(ilike(inspections.inspectionNo, bind('keyword', `%${likeEscape(q.keyword)}%`)));
  if (q.person) conds.push(ilike(endUsers.name, bind('person', `%${likeEscape(q.person)}%`)));
  if (q.date_from) conds.push(gte(inspections.measuredAt, bind('dateFrom', new Date(`${q.date_from}T00:00:00Z`))));
  if (q.date_to) conds.push(lt(inspections.measuredAt, bind('dateTo', new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + DAY))));
  if (q.risk) conds.push(eq(inspections.topRisk, bind('risk', q.risk)));
  if (q.level) conds.push(eq(inspections.worstLevel, bind('level', q.level)));
  return and(...conds);
}

/** What the list's page subquery carries of each inspection. */
const pageColumns = {
  id: inspections.id,
  inspectionNo: inspections.inspectionNo,
  measuredAt: inspections.measuredAt,
  endUserId: inspections.endUserId,
  doctorId: inspections.doctorId,
  deviceId: inspections.deviceId,
  institutionId: inspections.institutionId,
  worstLevel: inspections.worstLevel,
  topRisk: inspections.topRisk,
  analysis: inspections.analysis,
  analysisVersion: inspections.analysisVersion,
};

/**
 * Rows of the list as the API shows them (its names; they go out as read), with `total` (the list's capped
 * count, or 0 where it is not asked for: the export's batches). The inspections are filtered, ordered and
 * cut (LIMIT and OFFSET, by `window`) in a subquery of the inspections table alone (and the person, when the
 * person's name is a filter); only its rows are then joined with their person, device, institution and
 * doctor. In one flat join PostgreSQL plans six relations at every call (the scope's subquery too, and the
 * devices' fourteen indexes): at a million inspections a grade-3 clinic's first page spent 2.9 ms planning
 * and 3.0 ms executing, and a deep page joined every row it skipped (docs/decisions.md).
 */
function selectPage(db: Tx, q: { person?: string }, where: SQL | undefined, key: SortKey, window: <Q extends PgSelect>(query: Q) => Q, total: SQL<number> = NO_TOTAL) {
  let inner = db.select(pageColumns).from(inspections).$dynamic();
  if (q.person) inner = inner.innerJoin(endUsers, eq(endUsers.id, inspections.endUserId));
  const p = window(inner.where(where).orderBy(...orderOf(key))).as('p');
  return db
    .select({
      id: p.id,
      inspection_no: p.inspectionNo,
      measured_at: isoText(p.measuredAt),
      user_id: p.endUserId,
      user_name: endUsers.name,
      doctor_id: p.doctorId,
      doctor_name: doctors.name,
      device_id: p.deviceId,
      device_serial: devices.serial,
      institution_id: p.institutionId,
      institution_name: institutions.name,
      worst_level: sql<SystemLevel | null>`${p.worstLevel}`,
      top_risk: sql<InspectionRisk | null>`${p.topRisk}`,
      top_disease: sql<L10n | null>`${p.analysis}->'diseases'->0->'name'`,
      analysis_version: p.analysisVersion,
      total,
    })
    .from(p)
    .innerJoin(endUsers, eq(endUsers.id, p.endUserId))
    .innerJoin(devices, eq(devices.id, p.deviceId))
    .innerJoin(institutions, eq(institutions.id, p.institutionId))
    .leftJoin(doctors, eq(doctors.id, p.doctorId))
    .orderBy(...orderOf({ columns: [p.measuredAt], id: p.id, ascending: key.ascending }));
}

/** Newest first, unless the oldest first is asked for. */
const keyOf = (q: { sort?: string; order?: 'ascend' | 'descend' }): SortKey => ({ columns: [inspections.measuredAt], id: inspections.id, ascending: q.sort === 'measured_at' && q.order === 'ascend' });

/** The count joins the person only when the person's name is a filter. */
const countFrom = (q: { person?: string }, where: SQL | undefined) =>
  sql`${q.person ? sql`from ${inspections} inner join ${endUsers} on ${endUsers.id} = ${inspections.endUserId}` : sql`from ${inspections}`} where ${where ?? sql`true`}`;

/** The inspection list's statements, one per shape (its filters set, the caller's kind, its order). */
const inspectionList = new ShapedList<InspectionRow>();

/** GET /inspection/list: the caller's subtree (everything for the platform), newest first. */
export async function list(db: Tx, auth: Auth, q: InspectionListQuery): Promise<ListResult<InspectionRow>> {
  await assertInstitution(db, auth, q);
  const b = bound();
  const where = listConditions(auth, q, b.bind);
  const key = keyOf(q);
  return inspectionList.page(db, {
    q,
    where,
    bound: b,
    shape: String(key.ascending),
    countFrom: countFrom(q, where),
    countFromInline: () => countFrom(q, listConditions(auth, q, inline)),
    select: (db, cut, total) => selectPage(db, q, where, key, cut, total),
  });
}

/** GET /inspection/export: the filtered list, in its order, as CSV or XLSX (streamed). */
export async function exportList(db: Tx, auth: Auth, q: InspectionExportQuery, ctx: Ctx) {
  await assertInstitution(db, auth, q);
  const where = listConditions(auth, q, inline);
  const key = keyOf(q);
  const lang = ctx.lang;
  const pick = (text: L10n | null) => (text ? label(text, lang) : '');
  const columns: ExportColumn<InspectionRow>[] = [
    { title: label(LABELS.number, lang), value: (r) => r.inspection_no, width: 22 },
    { title: label(LABELS.time, lang), value: (r) => new Date(r.measured_at), width: 20 },
    { title: label(LABELS.person, lang), value: (r) => r.user_name, width: 16 },
    { title: label(LABELS.doctor, lang), value: (r) => r.doctor_name ?? '', width: 16 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial, width: 14 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 28 },
    { title: label(LABELS.worstLevel, lang), value: (r) => (r.worst_level ? label(LABELS.levels[r.worst_level], lang) : '') },
    { title: label(LABELS.topRisk, lang), value: (r) => (r.top_risk ? label(LABELS.risks[r.top_risk], lang) : '') },
    { title: label(LABELS.topDisease, lang), value: (r) => pick(r.top_disease), width: 24 },
    { title: label(LABELS.version, lang), value: (r) => r.analysis_version },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'inspections',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key,
    // The keyset walk's order is the key's (orderOf), which selectPage writes from the key itself.
    fetch: async (w, _order, limit) => (await selectPage(db, q, w, key, <Q extends PgSelect>(query: Q) => query.limit(limit) as Q)).map((row) => withoutTotal<InspectionRow>(row)),
    count: countFrom(q, where),
  });
}
