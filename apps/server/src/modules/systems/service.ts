import { and, asc, count, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { IdInput, ListResult, SystemBody, SystemEditBody, SystemListQuery, SystemRow, SystemTreeNode } from '@app/contract';
import type { Tx } from '../../db/client';
import { diseases, diseaseSystems, systems } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { fieldError } from '../../lib/form';
import { editorOrder, fromWhere, guardedDelete, iso, keywordMatch } from '../../lib/masterdata';
import { together } from '../../db/together';

const SORT_COLUMNS = { sort: systems.sort, id: systems.id, created_at: systems.createdAt } as const;
const parent = alias(systems, 'parent');
const childCount = sql<number>`(select count(*)::int from systems c where c.parent_id = "systems"."id")`;

/** Every body system with its subsystems, in the editor's order. */
export async function tree(db: Tx, _auth: Auth, _input: unknown): Promise<SystemTreeNode[]> {
  const rows = await db.select().from(systems).orderBy(asc(systems.sort), asc(systems.id));
  const nodes = rows.filter((r) => r.parentId === null).map((r): SystemTreeNode => ({ id: r.id, name: r.name, weights: r.weights, sort: r.sort, children: [] }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const r of rows) {
    if (r.parentId !== null) byId.get(r.parentId)?.children.push({ id: r.id, parent_id: r.parentId, name: r.name, weights: r.weights, sort: r.sort });
  }
  return nodes;
}

function toRow(s: typeof systems.$inferSelect, parentName: SystemRow['parent_name'], children: number): SystemRow {
  return {
    id: s.id,
    parent_id: s.parentId,
    parent_name: parentName ?? null,
    level: s.parentId === null ? 1 : 2,
    name: s.name,
    weights: s.weights,
    sort: s.sort,
    child_count: Number(children),
    created_at: iso(s.createdAt),
  };
}

const selectRows = (db: Tx) => db.select({ s: systems, parentName: parent.name, childCount }).from(systems).leftJoin(parent, eq(parent.id, systems.parentId));

export async function list(db: Tx, _auth: Auth, q: SystemListQuery): Promise<ListResult<SystemRow>> {
  const conds: (SQL | undefined)[] = [keywordMatch(q.keyword, { l10n: [systems.name] })];
  if (q.parent_id) conds.push(eq(systems.parentId, q.parent_id));
  if (q.level === 1) conds.push(isNull(systems.parentId));
  if (q.level === 2) conds.push(isNotNull(systems.parentId));
  const where = and(...conds);
  return pagedList(db, q, fromWhere(systems, where), async (limit, offset) =>
    (
      await selectRows(db)
        .where(where)
        .orderBy(...editorOrder(SORT_COLUMNS, q, systems.sort, systems.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r.s, r.parentName, r.childCount)),
  );
}

/** The same tree for pickers in other pages (related systems of a disease). */
export const options = tree;

async function byId(db: Tx, id: number): Promise<SystemRow | null> {
  const [r] = await selectRows(db).where(eq(systems.id, id));
  return r ? toRow(r.s, r.parentName, r.childCount) : null;
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<SystemRow> {
  const row = await byId(db, id);
  if (!row) throw notFound();
  return row;
}

/** The audit trail's view of a system (deletes are hard: gone = null). */
export async function snapshot(db: Tx, id: number | null): Promise<SystemRow | null> {
  return id == null ? null : byId(db, id);
}

/** Two levels only: the parent must be an existing top-level system other than itself, and a system with subsystems stays top-level. */
async function checkParent(db: Tx, parentId: number | null, selfId: number | null) {
  if (parentId === null) return;
  if (parentId === selfId) throw fieldError('parent_id', 'systemParentNotTop');
  const [p] = await db.select({ id: systems.id, parentId: systems.parentId }).from(systems).where(eq(systems.id, parentId));
  if (!p) throw fieldError('parent_id', 'refMissing', { field: 'parent_id', ids: parentId });
  if (p.parentId !== null) throw fieldError('parent_id', 'systemParentNotTop');
  if (selfId !== null) {
    const [c] = await db.select({ n: count() }).from(systems).where(eq(systems.parentId, selfId));
    if (c!.n > 0) throw fieldError('parent_id', 'systemHasChildren');
  }
}

export async function add(db: Tx, _auth: Auth, body: SystemBody): Promise<{ id: number }> {
  await checkParent(db, body.parent_id, null);
  const [row] = await db.insert(systems).values({ parentId: body.parent_id, name: body.name, weights: body.weights, sort: body.sort }).returning({ id: systems.id });
  return { id: row!.id };
}

export async function edit(db: Tx, _auth: Auth, body: SystemEditBody): Promise<null> {
  const [found] = await db.select({ id: systems.id }).from(systems).where(eq(systems.id, body.id));
  if (!found) throw notFound();
  await checkParent(db, body.parent_id, body.id);
  await db.update(systems).set({ parentId: body.parent_id, name: body.name, weights: body.weights, sort: body.sort }).where(eq(systems.id, body.id));
  return null;
}

/** Refused while the system has subsystems or a disease names it. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [found] = await db.select({ id: systems.id }).from(systems).where(eq(systems.id, id));
  if (!found) throw notFound();
  await guardedDelete(
    db,
    async () => {
      const [children, holders] = await together(db, [
        () => db.select({ name: systems.name }).from(systems).where(eq(systems.parentId, id)).orderBy(asc(systems.sort), asc(systems.id)),
        () =>
          db
            .select({ name: diseases.name })
            .from(diseaseSystems)
            .innerJoin(diseases, eq(diseases.id, diseaseSystems.diseaseId))
            .where(eq(diseaseSystems.systemId, id))
            .orderBy(asc(diseases.sort), asc(diseases.id)),
      ]);
      return [
        { key: 'holderSubsystems', count: children.length, names: children.map((c) => c.name) },
        { key: 'holderDiseases', count: holders.length, names: holders.map((d) => d.name) },
      ];
    },
    (tx) => tx.delete(systems).where(eq(systems.id, id)),
  );
  return null;
}
