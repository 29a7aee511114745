/**
 * The permission walk: every registered API route, called without a key, by every institution grade,
 * by an admin whose role holds nothing, with a forged institution field, and with junk input. What the
 * shared permission table denies must be denied by the server, whatever the handler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { type Access, canOpenRouteNamed, canUseButton, formatMessage, type Viewer } from '@app/contract';
import { createTestApp, type TestApp } from '../test/harness';
import { adminUsers, institutions, roles } from '../db/schema';
import { createSession } from '../lib/sessions';
import { hashPassword } from '../lib/crypto';

let t: TestApp;
let inst: Record<string, { id: number; grade: number }>;
let emptyAdminId: number;
let superAdminId: number;
const FORBIDDEN = formatMessage('forbidden', 'en');
const MISMATCH = formatMessage('institutionMismatch', 'en');

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, { id: r.id, grade: r.grade }]));
  const [role] = await t.db.insert(roles).values({ name: 'Holds nothing' }).returning();
  const [user] = await t.db
    .insert(adminUsers)
    .values({ username: 'nobody-admin', passwordHash: await hashPassword('irrelevant-1'), roleId: role!.id })
    .returning();
  emptyAdminId = user!.id;
  superAdminId = (await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'admin')))[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

const keyFor = async (kind: 'admin' | 'institution', subjectId: number) => (await createSession(t.db, { kind, subjectId, ip: '127.0.0.1' })).key;
const routes = () => t.app.apiRoutes.filter((r) => !('public' in r.endpoint.access) && !r.url.includes('/uploads/'));
const fill = (url: string) => url.replace(/:(\w+)/g, '1');

function allowed(a: Access, viewer: Viewer): boolean | 'session' {
  if ('page' in a) return canOpenRouteNamed(a.page, viewer);
  if ('button' in a) return canUseButton(a.button, viewer);
  if ('grades' in a) return a.grades.includes(viewer.isAdmin ? 0 : viewer.grade);
  return 'session';
}

describe('permission walk over every API route', () => {
  it('registers routes, all with an access rule', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(5);
  });

  it('no key: 999 everywhere but the public routes', async () => {
    for (const r of routes()) {
      const res = await t.call(r.method as 'GET' | 'POST', fill(r.url.replace('/adminapi', '')));
      expect(res.code, `${r.method} ${r.url}`).toBe(999);
    }
  });

  it.each(['agent1', 'agent2', 'clinic3'])('institution %s: refused exactly where the table refuses', async (username) => {
    const me = inst[username]!;
    const viewer: Viewer = { isAdmin: false, grade: me.grade as 1 | 2 | 3 };
    for (const r of routes()) {
      const ok = allowed(r.endpoint.access, viewer);
      if (ok === 'session') continue;
      const key = await keyFor('institution', me.id);
      const res = await t.call(r.method as 'GET' | 'POST', fill(r.url.replace('/adminapi', '')), { key });
      expect(res.status, `${r.method} ${r.url}`).toBeLessThan(500);
      if (!ok) expect(res.datas?.error, `${username} ${r.method} ${r.url}`).toBe(FORBIDDEN);
      else expect(res.datas?.error, `${username} ${r.method} ${r.url}`).not.toBe(FORBIDDEN);
    }
  });

  it('an admin whose role holds nothing is refused every page and button route', async () => {
    for (const r of routes()) {
      if (allowed(r.endpoint.access, { isAdmin: true, grade: 0, granted: new Set() }) !== false) continue;
      const key = await keyFor('admin', emptyAdminId);
      const res = await t.call(r.method as 'GET' | 'POST', fill(r.url.replace('/adminapi', '')), { key });
      expect(res.datas?.error, `${r.method} ${r.url}`).toBe(FORBIDDEN);
    }
  });

  it('a forged institution field is refused on every route', async () => {
    const me = inst.clinic3!;
    for (const r of routes()) {
      const key = await keyFor('institution', me.id);
      const forged = { [`institution_id_${me.grade}`]: inst.clinic3b!.id };
      const res = await t.call(r.method as 'GET' | 'POST', fill(r.url.replace('/adminapi', '')), { key, query: forged, body: forged });
      expect(res.datas?.error, `${r.method} ${r.url}`).toBe(MISMATCH);
    }
  });

  it('junk input never answers 500 or a stack trace', async () => {
    const junk = [{}, { id: 'x', page: -1, limit: 'all', list: [1, { a: null }] }, { id: 9_999_999_999, name: 'a'.repeat(5000), value: { $ne: 1 } }];
    for (const r of routes()) {
      for (const body of junk) {
        const key = await keyFor('admin', superAdminId);
        const res = await t.call(r.method as 'GET' | 'POST', fill(r.url.replace('/adminapi', '')), { key, query: body, body });
        expect(res.status, `${r.method} ${r.url} ${JSON.stringify(body).slice(0, 60)}`).toBeLessThan(500);
        expect(res.raw).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
      }
    }
  });
});
