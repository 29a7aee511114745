/**
 * Walks over every registered API route: a forged institution field is refused everywhere, and junk
 * input never answers a 500 or a stack trace. Who may call what is the hand-written table of
 * permissions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { formatMessage } from '@app/contract';
import { createTestApp, type TestApp } from '../test/harness';
import { adminUsers, institutions } from '../db/schema';
import { createSession } from '../lib/sessions';

let t: TestApp;
let inst: Record<string, { id: number; grade: number }>;
let superAdminId: number;
const MISMATCH = formatMessage('institutionMismatch', 'en');

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, { id: r.id, grade: r.grade }]));
  superAdminId = (await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'admin')))[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

const keyFor = async (kind: 'admin' | 'institution', subjectId: number) => (await createSession(t.db, { kind, subjectId, ip: '127.0.0.1' })).key;
// A stream stays open (its walk is over real HTTP: modules/notices/notices.test.ts).
const routes = () => t.app.apiRoutes.filter((r) => !('public' in r.endpoint.access) && !r.url.includes('/uploads/') && !r.endpoint.stream);
const fill = (url: string) => url.replace(/:(\w+)/g, '1');

describe('walk over every API route', () => {
  it('registers routes, all with an access rule', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(5);
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
