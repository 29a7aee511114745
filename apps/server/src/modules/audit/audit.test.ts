/**
 * The audit trail: every successful write through the endpoint table leaves one row with who, what,
 * when, from where and the record before and after, in the write's own transaction; failed writes leave
 * none; the rows can be neither changed nor deleted; the page's calls follow the AuditLog grant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@app/contract';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

const trail = (query: Record<string, unknown>, key = admin) => t.call('GET', '/audit/list', { key, query });

describe('audit trail of a package', () => {
  it('records create, edit and delete with the right before and after', async () => {
    const created = await t.call('POST', '/package/add', { key: admin, body: { name: 'Audited pack', kind: 'count', uses: 3, price_cents: 300 } });
    expect(created.code).toBe(200);
    const id = created.datas.id as number;
    expect((await t.call('POST', '/package/edit', { key: admin, body: { id, name: 'Audited pack 2', kind: 'count', uses: 4, price_cents: 450 } })).code).toBe(200);
    expect((await t.call('POST', '/package/del', { key: admin, body: { id } })).code).toBe(200);

    const res = await trail({ record_type: 'package', record_id: id, order: 'ascend' });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(3);
    const [add, edit, del] = res.datas.list;
    expect(add).toMatchObject({ endpoint: 'packages.add', path: '/package/add', actor_kind: 'admin', actor_name: 'admin', record_type: 'package', record_id: id, change: 'create', changed: [] });
    expect(edit).toMatchObject({ endpoint: 'packages.edit', change: 'update' });
    expect(edit.changed).toEqual(expect.arrayContaining(['name', 'uses', 'price_cents', 'updated_at']));
    expect(edit.changed).not.toContain('kind');
    expect(del).toMatchObject({ endpoint: 'packages.remove', changed: expect.arrayContaining(['deleted_at']) });

    const addDetail = (await t.call('GET', '/audit/detail', { key: admin, query: { id: add.id } })).datas;
    expect(addDetail.before).toBeNull();
    expect(addDetail.after).toMatchObject({ id, name: 'Audited pack', uses: 3, price_cents: 300, deleted_at: null });
    const editDetail = (await t.call('GET', '/audit/detail', { key: admin, query: { id: edit.id } })).datas;
    expect(editDetail.before).toMatchObject({ name: 'Audited pack', uses: 3, price_cents: 300 });
    expect(editDetail.after).toMatchObject({ name: 'Audited pack 2', uses: 4, price_cents: 450 });
    const delDetail = (await t.call('GET', '/audit/detail', { key: admin, query: { id: del.id } })).datas;
    expect(delDetail.before.deleted_at).toBeNull();
    expect(delDetail.after.deleted_at).toEqual(expect.any(String));
    // The input is kept too, without the session key.
    expect(addDetail.input).toMatchObject({ name: 'Audited pack' });
    expect(JSON.stringify(addDetail)).not.toContain(admin);
  });

  it('a refused write leaves no row', async () => {
    const before = (await trail({ endpoint: 'packages.add' })).datas.total;
    const bad = await t.call('POST', '/package/add', { key: admin, body: { name: 'x', kind: 'count', price_cents: 1 } });
    expect(bad.code).toBe(400);
    const taken = await t.call('POST', '/package/add', { key: admin, body: { name: '10 inspections', kind: 'count', uses: 1, price_cents: 1 } });
    expect(taken.code).toBe(400);
    expect((await trail({ endpoint: 'packages.add' })).datas.total).toBe(before);
  });

  it('filters by who, record type, record id and time range', async () => {
    const all = (await trail({ limit: 200 })).datas;
    expect(all.total).toBeGreaterThan(0);
    expect((await trail({ actor: 'nobody-at-all' })).datas.total).toBe(0);
    expect((await trail({ actor: 'adm', record_type: 'package' })).datas.total).toBe(3);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await trail({ from: future })).datas.total).toBe(0);
    expect((await trail({ to: future, record_type: 'package' })).datas.total).toBe(3);
    const types = (await t.call('GET', '/audit/record_types', { key: admin })).datas;
    expect(types).toContain('package');
  });

  it('rows cannot be changed or deleted, even by direct SQL', async () => {
    const refusal = (q: Promise<unknown>) =>
      q.then(
        () => 'allowed',
        (e: { message: string; cause?: { message?: string } }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(await refusal(t.db.execute(sql`update audit_log set actor_name = 'someone else'`))).toMatch(/append-only/);
    expect(await refusal(t.db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    expect(await refusal(t.db.execute(sql`truncate audit_log`))).toMatch(/append-only/);
    const [{ n }] = (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLog)) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
  });

  it('the page follows its grant: an admin without AuditLog is refused, institutions too', async () => {
    const without = await t.adminWith('no-audit', ['PackageManage']);
    expect((await trail({}, without)).datas.error).toBe(formatMessage('forbidden', 'en'));
    const withIt = await t.adminWith('with-audit', ['AuditLog']);
    expect((await trail({}, withIt)).code).toBe(200);
    const agent = (await t.login('agent1', 'institution')).key;
    expect((await trail({}, agent)).datas.error).toBe(formatMessage('forbidden', 'en'));
  });
});
