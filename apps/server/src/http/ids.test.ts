/**
 * Strict ids everywhere: a row id is a positive safe integer given as a JSON number or a string of
 * decimal digits. Every id field of every endpoint (found by how its schema behaves, so a new endpoint
 * is covered without a line here) refuses the fuzz cases with a 400 at that field, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ENDPOINTS, idSchema, type Endpoint } from '@app/contract';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

/** Bad ids as a JSON body carries them, and as a query string does. */
const BAD_BODY: unknown[] = ['0x10', '1e0', ' 1 ', '1.0', true, [1], 0, -1, 1.5, '', 'abc', 2_147_483_648, '99999999999', { id: 1 }];
const BAD_QUERY = ['0x10', '1e0', ' 1 ', '1.0', 'true', '0', '-1', '1.5', 'abc', '2147483648', '+1'];

/** An object schema's fields that behave as ids: accept 7 and "7", refuse "0x10". */
function idFields(e: Endpoint): string[] {
  const shape = (e.input as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  return Object.entries(shape)
    .filter(([, s]) => s.safeParse(7).success && s.safeParse('7').success && !s.safeParse('0x10').success && !s.safeParse(' 7 ').success)
    .map(([k]) => k);
}

describe('strict ids', () => {
  it('the id schema itself', () => {
    for (const ok of [1, '1', '42', 2_147_483_647, '2147483647']) expect(idSchema.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [...BAD_BODY, ...BAD_QUERY]) expect(idSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(idSchema.parse('42')).toBe(42);
  });

  const targets = ENDPOINTS.filter((e) => !e.raw && e.body !== 'multipart').flatMap((e) => idFields(e).map((field) => ({ e, field })));

  it('finds the id fields of the table (detail, delete, pickers and filters)', () => {
    const names = targets.map(({ e, field }) => `${e.name}.${field}`);
    expect(names).toContain('packages.detail.id');
    expect(names).toContain('packages.remove.id');
    expect(names.length).toBeGreaterThan(20);
  });

  it('every id field answers 400 at the field for each fuzz case', async () => {
    const failures: string[] = [];
    for (const { e, field } of targets) {
      const cases = e.method === 'GET' ? BAD_QUERY : BAD_BODY;
      for (const bad of cases) {
        const res =
          e.method === 'GET' ? await t.call('GET', e.path.replace(/:(\w+)/g, '1'), { key: admin, query: { [field]: bad } }) : await t.call('POST', e.path, { key: admin, body: { [field]: bad } });
        if (res.code !== 400 || !res.datas?.fields?.[field]) failures.push(`${e.name}.${field} = ${JSON.stringify(bad)}: ${res.code} ${JSON.stringify(res.datas).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a bad id deletes nothing: package 1 survives "1e0", "0x1" and [1]', async () => {
    for (const id of ['1e0', '0x1', [1], ' 1', true]) {
      expect((await t.call('POST', '/package/del', { key: admin, body: { id } })).code).toBe(400);
    }
    const list = await t.call('GET', '/package/detail', { key: admin, query: { id: 1 } });
    expect(list.code).toBe(200);
  });
});
