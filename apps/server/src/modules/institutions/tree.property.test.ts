/**
 * A property test over random trees and random operations (fast-check): whatever the tree and whoever
 * acts, an institution never sees or changes anything outside its own subtree, and every institution's
 * grade is its parent's plus one, at most 3 (grade 1 at the top), with a path that follows its parent's.
 *
 * Each run grows a tree of its own from two grade-1 agents, through the API: creations by admins and by
 * institutions, admin moves, and probes by a random institution of a random one (list, subtree, detail,
 * edit, status), checked against a model of the tree.
 */
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@app/contract';
import { institutions } from '../../db/schema';
import { createSession } from '../../lib/sessions';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
let outsider: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  outsider = await t.institutionId('clinic3b');
});
afterAll(async () => {
  await t?.close();
});

const FORBIDDEN = formatMessage('forbidden', 'en');

type Op =
  | { kind: 'create'; parent: number; byAdmin: boolean }
  | { kind: 'move'; node: number; parent: number | null }
  | { kind: 'probe'; actor: number; target: number; what: 'detail' | 'edit' | 'status' | 'subtree' }
  | { kind: 'list'; actor: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), parent: fc.nat(), byAdmin: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), node: fc.nat(), parent: fc.option(fc.nat(), { nil: null }) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('probe' as const), actor: fc.nat(), target: fc.nat(), what: fc.constantFrom('detail' as const, 'edit' as const, 'status' as const, 'subtree' as const) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('list' as const), actor: fc.nat() }) },
);

interface Node {
  id: number;
  parent: number | null;
  grade: number;
}

let run = 0;

describe('the institution tree (property)', () => {
  it('no institution sees or changes anything outside its subtree; grades and paths follow the parent', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const prefix = `P${++run}-`;
        let n = 0;
        const nodes: Node[] = [];
        const index = (id: number) => nodes.findIndex((x) => x.id === id);
        /** How many levels `b` lies below `a` (0: itself), or -1 when it is not in a's subtree. */
        const levelsBelow = (a: number, b: number): number => {
          let steps = 0;
          for (let cur: number | null = b; cur != null; cur = nodes[cur]!.parent, steps++) if (cur === a) return steps;
          return -1;
        };
        const under = (a: number, b: number) => levelsBelow(a, b) >= 0;
        const keyOf = async (i: number) => (await createSession(t.db, { kind: 'institution', subjectId: nodes[i]!.id, ip: '127.0.0.1' })).key;
        const body = (extra: Record<string, unknown>) => ({
          username: `${prefix}u${++n}`.toLowerCase(),
          name: `${prefix}${n}`,
          contact_name: 'Contact',
          phone: '13800000000',
          region: ['330000', '330100', '330106'],
          ...extra,
        });
        const create = async (key: string, parent: number | null, extra: Record<string, unknown> = {}) => {
          const res = await t.call('POST', '/institution/add', { key, body: body(extra) });
          expect(res.code, res.raw).toBe(200);
          const grade = parent == null ? 1 : Math.min(nodes[parent]!.grade + 1, 3);
          nodes.push({ id: res.datas.id, parent, grade });
        };
        await create(admin, null);
        await create(admin, null);

        for (const op of ops) {
          if (op.kind === 'create') {
            const parent = op.parent % nodes.length;
            if (op.byAdmin) await create(admin, parent, { parent_id: nodes[parent]!.id });
            else await create(await keyOf(parent), parent);
          } else if (op.kind === 'move') {
            const node = op.node % nodes.length;
            const parent = op.parent == null ? null : op.parent % nodes.length;
            const fits = (parent == null ? 1 : Math.min(nodes[parent]!.grade + 1, 3)) === nodes[node]!.grade;
            const allowed = fits && (parent == null || !under(node, parent));
            const res = await t.call('POST', '/institution/move', { key: admin, body: { id: nodes[node]!.id, parent_id: parent == null ? null : nodes[parent]!.id } });
            expect(res.code, `move ${JSON.stringify(op)}: ${res.raw}`).toBe(allowed ? 200 : 400);
            if (allowed) nodes[node]!.parent = parent;
          } else if (op.kind === 'list') {
            const actor = op.actor % nodes.length;
            const res = await t.call('GET', '/institution/list', { key: await keyOf(actor), query: { name: prefix, limit: 200 } });
            const seen = (res.datas.list as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
            const expected = nodes
              .map((x, i) => (under(actor, i) ? x.id : null))
              .filter((x): x is number => x != null)
              .sort((a, b) => a - b);
            expect(seen).toEqual(expected);
          } else {
            const actor = op.actor % nodes.length;
            // Now and then the target is an institution of another tree.
            const foreign = op.target % 7 === 6;
            const target = foreign ? -1 : op.target % nodes.length;
            const targetId = foreign ? outsider : nodes[target]!.id;
            const inside = !foreign && under(actor, target);
            const key = await keyOf(actor);
            const label = `${op.what} by #${actor} of ${foreign ? 'a foreign institution' : `#${target}`}`;
            let res: { code: number; datas: any; raw: string };
            let allowed = inside;
            if (op.what === 'detail') res = await t.call('GET', '/institution/detail', { key, query: { id: targetId } });
            else if (op.what === 'subtree') res = await t.call('GET', '/institution/subtree', { key, query: { ids: String(targetId), depth: 3 } });
            else if (op.what === 'status') {
              allowed = inside && target !== actor;
              res = await t.call('POST', '/institution/status', { key, body: { id: targetId, status: 'enabled' } });
            } else {
              const name = `${prefix}edited${++n}`;
              res = await t.call('POST', '/institution/edit', { key, body: { id: targetId, name, contact_name: 'C', phone: '13800000001', region: ['330000', '330100', '330106'] } });
              const [row] = await t.db
                .select({ name: institutions.name })
                .from(institutions)
                .where(inArray(institutions.id, [targetId]));
              expect(row!.name === name, `${label}: changed`).toBe(allowed);
              // Keep the run's prefix, so the run's list filter still finds it.
            }
            if (allowed) expect(res.code, `${label}: ${res.raw}`).toBe(200);
            else expect(res.datas?.error, `${label}: ${res.raw}`).toBe(FORBIDDEN);
            if (allowed && op.what === 'subtree') {
              const seen = (res.datas.list as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
              const expected = nodes
                .map((x, i) => (levelsBelow(target, i) >= 1 && levelsBelow(target, i) <= 3 ? x.id : null))
                .filter((x): x is number => x != null)
                .sort((a, b) => a - b);
              expect(seen, label).toEqual(expected);
            }
          }
        }

        // The stored tree is the model's, with the grade rule and the paths intact.
        const rows = await t.db
          .select()
          .from(institutions)
          .where(
            inArray(
              institutions.id,
              nodes.map((x) => x.id),
            ),
          );
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [i, node] of nodes.entries()) {
          const row = byId.get(node.id)!;
          const parentRow = node.parent == null ? null : byId.get(nodes[node.parent]!.id)!;
          expect(row.parentId, `#${i}`).toBe(parentRow?.id ?? null);
          expect(row.grade, `#${i} grade`).toBe(parentRow ? Math.min(parentRow.grade + 1, 3) : 1);
          expect(row.path, `#${i} path`).toBe(`${parentRow?.path ?? '/'}${row.id}/`);
          expect(index(row.id)).toBe(i);
        }
      }),
      { numRuns: 25 },
    );
  });
});
