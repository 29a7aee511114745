import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type AddViewBody, type EditViewBody, ENDPOINTS, type ListName, type ListPreferences, PREFERENCE_LIMITS, type PreferencesQuery, type SavedView, type SaveColumnsBody } from '@app/contract';
import type { Tx } from '../../db/client';
import { listColumns, listViews } from '../../db/schema';
import { type Auth, callerRef, meetsAccess } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { fieldError, parseForm } from '../../lib/form';

/*
 * Lists people can shape (contract api/preferences.ts): the caller's own columns and saved views of a list.
 * The account comes from the session, never from the input. A list is named by its list endpoint; the
 * caller must be able to read that list (the endpoint's own access rule), and a saved view's filters and
 * sort are checked by that endpoint's query schema, so a view the list would refuse is never stored.
 * Writes of one account's list run one after another (a transaction-scoped advisory lock on the account
 * and list), so the limit of views and the one default hold under concurrent calls.
 */

type Subject = { kind: 'admin' | 'institution'; id: number };

const listEndpoint = (list: ListName) => ENDPOINTS.find((e) => e.name === list)!;

/** The caller may read the list: its endpoint's own access rule. */
function requireList(auth: Auth, list: ListName) {
  if (!meetsAccess(listEndpoint(list).access, auth)) throw forbidden();
}

const PAGING = new Set(['page', 'limit', 'sort', 'order']);

/** A view's filters and sort, checked by the list's own query schema (what the list would refuse is refused). */
function checkView(list: ListName, v: { filters: Record<string, string>; sort?: string | null; order?: string | null }, lang: Ctx['lang']) {
  const schema = listEndpoint(list).input as z.ZodObject;
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const name of Object.keys(v.filters)) if (PAGING.has(name) || !Object.hasOwn(shape, name)) throw fieldError(`filters.${name}`, 'listViewFilterUnknown', { name });
  if (v.sort) {
    const sortable = (shape.sort as unknown as { unwrap?: () => { options?: readonly string[] } }).unwrap?.().options;
    if (!sortable?.includes(v.sort)) throw fieldError('sort', 'listViewSortUnknown', { name: v.sort });
  }
  try {
    parseForm(schema, Object.assign({}, v.filters, v.sort && v.order ? { sort: v.sort, order: v.order } : {}), lang);
  } catch (err) {
    const fields = err instanceof AppError ? err.extra.fields : undefined;
    const [path, reason] = Object.entries(fields ?? {})[0] ?? ['', ''];
    throw fieldError(`filters.${path}`, 'listViewFilterInvalid', { name: path, reason });
  }
}

/** One account's writes to one list, one at a time. */
const lockList = (db: Tx, s: Subject, list: string) => db.execute(sql`select pg_advisory_xact_lock(hashtext(${`list_prefs:${s.kind}:${s.id}:${list}`}))`);

const ofList = (s: Subject, list: string) => and(eq(listViews.subjectKind, s.kind), eq(listViews.subjectId, s.id), eq(listViews.list, list));

function viewRow(r: typeof listViews.$inferSelect): SavedView {
  return { id: r.id, name: r.name, filters: r.filters, sort: r.sort, order: r.order, is_default: r.isDefault, updated_at: r.updatedAt.toISOString() };
}

/** GET /preference/list: the caller's columns and views of one list. */
export async function get(db: Tx, auth: Auth, q: PreferencesQuery): Promise<ListPreferences> {
  const list = q.list as ListName;
  requireList(auth, list);
  const s = callerRef(auth);
  const [cols] = await db
    .select({ columns: listColumns.columns })
    .from(listColumns)
    .where(and(eq(listColumns.subjectKind, s.kind), eq(listColumns.subjectId, s.id), eq(listColumns.list, list)));
  const views = await db.select().from(listViews).where(ofList(s, list)).orderBy(asc(listViews.name), asc(listViews.id));
  return { list, columns: cols?.columns ?? null, views: views.map(viewRow) };
}

/** POST /preference/columns: the list's columns in order, shown or hidden; null: back to the page's own. */
export async function saveColumns(db: Tx, auth: Auth, body: SaveColumnsBody): Promise<{ id: number }> {
  const list = body.list as ListName;
  requireList(auth, list);
  const s = callerRef(auth);
  const columns = body.columns?.length ? body.columns : null;
  const [row] = await db
    .insert(listColumns)
    .values({ subjectKind: s.kind, subjectId: s.id, list, columns })
    .onConflictDoUpdate({ target: [listColumns.subjectKind, listColumns.subjectId, listColumns.list], set: { columns, updatedAt: new Date() } })
    .returning({ id: listColumns.id });
  return { id: row!.id };
}

async function nameFree(db: Tx, s: Subject, list: string, name: string, except?: number) {
  const [taken] = await db
    .select({ id: listViews.id })
    .from(listViews)
    .where(and(ofList(s, list), eq(listViews.name, name), except ? ne(listViews.id, except) : undefined));
  if (taken) throw fieldError('name', 'listViewNameTaken', { name });
}

const clearDefault = (db: Tx, s: Subject, list: string) =>
  db
    .update(listViews)
    .set({ isDefault: false })
    .where(and(ofList(s, list), eq(listViews.isDefault, true)));

/** POST /preference/view_add: a named view of the list's filters and sort. */
export async function addView(db: Tx, auth: Auth, body: AddViewBody, ctx: Ctx): Promise<{ id: number }> {
  const list = body.list as ListName;
  requireList(auth, list);
  checkView(list, body, ctx.lang);
  const s = callerRef(auth);
  await lockList(db, s, list);
  const [held] = await db.select({ n: count() }).from(listViews).where(ofList(s, list));
  if ((held?.n ?? 0) >= PREFERENCE_LIMITS.viewsPerList) throw badRequest('listViewsFull', { max: PREFERENCE_LIMITS.viewsPerList });
  await nameFree(db, s, list, body.name);
  if (body.is_default) await clearDefault(db, s, list);
  const [row] = await db
    .insert(listViews)
    .values({
      subjectKind: s.kind,
      subjectId: s.id,
      list,
      name: body.name,
      filters: body.filters,
      sort: body.sort && body.order ? body.sort : null,
      order: body.sort && body.order ? body.order : null,
      isDefault: body.is_default,
    })
    .returning({ id: listViews.id });
  return { id: row!.id };
}

/** The caller's own view (another account's is not found), locked with its list. */
async function ownView(db: Tx, auth: Auth, id: number) {
  const s = callerRef(auth);
  const [view] = await db
    .select()
    .from(listViews)
    .where(and(eq(listViews.id, id), eq(listViews.subjectKind, s.kind), eq(listViews.subjectId, s.id)));
  if (!view) throw notFound();
  await lockList(db, s, view.list);
  return { s, view };
}

/** POST /preference/view_edit: rename, the default on or off, or new filters and sort. */
export async function editView(db: Tx, auth: Auth, body: EditViewBody, ctx: Ctx): Promise<null> {
  const { s, view } = await ownView(db, auth, body.id);
  const list = view.list as ListName;
  requireList(auth, list);
  const set: Partial<typeof listViews.$inferInsert> = { updatedAt: new Date() };
  if (body.name !== undefined) {
    await nameFree(db, s, list, body.name, view.id);
    set.name = body.name;
  }
  if (body.filters !== undefined) {
    checkView(list, { filters: body.filters, sort: body.sort, order: body.order }, ctx.lang);
    set.filters = body.filters;
    set.sort = body.sort && body.order ? body.sort : null;
    set.order = body.sort && body.order ? body.order : null;
  }
  if (body.is_default !== undefined) {
    if (body.is_default) await clearDefault(db, s, list);
    set.isDefault = body.is_default;
  }
  await db.update(listViews).set(set).where(eq(listViews.id, view.id));
  return null;
}

/** POST /preference/view_delete. */
export async function deleteView(db: Tx, auth: Auth, body: { id: number }): Promise<null> {
  const { view } = await ownView(db, auth, body.id);
  await db.delete(listViews).where(eq(listViews.id, view.id));
  return null;
}

/** The audit trail's view of a saved view. */
export async function viewSnapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [r] = await db.select().from(listViews).where(eq(listViews.id, id));
  return r ? Object.assign(viewRow(r), { list: r.list, account: `${r.subjectKind}:${r.subjectId}` }) : null;
}

/** The audit trail's view of a list's columns: their order and the hidden ones (a `key` field would be redacted there as a secret). */
export async function columnsSnapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [r] = await db.select().from(listColumns).where(eq(listColumns.id, id));
  if (!r) return null;
  return { id: r.id, list: r.list, account: `${r.subjectKind}:${r.subjectId}`, order: r.columns?.map((c) => c.key) ?? null, hidden: r.columns?.filter((c) => !c.visible).map((c) => c.key) ?? null };
}
