import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { devices } from '../db/schema';
import { openTestDatabase } from '../test/harness';
import { isoOfPgText, isoText } from './list';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seed: false });
});
afterAll(async () => {
  await database?.close();
});

const STAMPS = [
  '2026-11-25T04:48:23.315Z',
  '2026-11-25T04:48:23.000Z',
  '2026-11-25T04:48:23.3159Z',
  '2026-11-25T04:48:23.999999Z',
  '2026-11-25T04:48:23.05Z',
  '2026-11-25T04:48:23.1Z',
  '1970-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2024-02-29T12:00:00.000Z',
];

/** PostgreSQL's own text of each stamp, in a session of time zone `zone`. */
async function textsIn(zone: string): Promise<string[]> {
  const client = await database.pool.connect();
  try {
    await client.query(`set time zone '${zone}'`);
    const out: string[] = [];
    for (const s of STAMPS) out.push((await client.query({ text: 'select $1::timestamptz::text as t', values: [s] })).rows[0].t);
    return out;
  } finally {
    await client.query('reset time zone');
    client.release();
  }
}

describe('isoOfPgText', () => {
  it('prints what Date.toISOString prints, from a UTC session (sliced) and from others (through Date)', async () => {
    const expected = STAMPS.map((s) => new Date(s).toISOString());
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/St_Johns']) {
      const texts = await textsIn(zone);
      expect(texts.map(isoOfPgText), zone).toEqual(expected);
    }
    // The sliced path is taken for UTC text (no Date involved): a fraction of 1-6 digits or none.
    expect(isoOfPgText('2026-11-25 04:48:23+00')).toBe('2026-11-25T04:48:23.000Z');
    expect(isoOfPgText('2026-11-25 04:48:23.1+00')).toBe('2026-11-25T04:48:23.100Z');
    expect(isoOfPgText('2026-11-25 04:48:23.123456+00')).toBe('2026-11-25T04:48:23.123Z');
    // Early years print in UTC; in zones whose offset then had seconds ("+08:05:43") Date cannot read the text,
    // as it could not when drizzle made Dates of it.
    expect(isoOfPgText('0001-01-01 00:00:00+00')).toBe('0001-01-01T00:00:00.000Z');
    expect(isoOfPgText('1900-01-01 00:00:00+00')).toBe('1900-01-01T00:00:00.000Z');
  });

  it('isoText reads a column as that text through drizzle, nulls as null', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    await database.db.insert(devices).values([
      { serial: 'T-1', model: 'M', name: 'n', secretHash: 'h1', status: 'active', activatedAt: at },
      { serial: 'T-2', model: 'M', name: 'n', secretHash: 'h2', status: 'inactive' },
    ]);
    const rows = await database.db
      .select({ serial: devices.serial, activatedAt: isoText(devices.activatedAt), createdAt: isoText(devices.createdAt), raw: devices.createdAt })
      .from(devices)
      .where(sql`${devices.serial} like 'T-%'`)
      .orderBy(devices.serial);
    expect(rows.map((r) => [r.serial, r.activatedAt])).toEqual([
      ['T-1', '2026-03-04T05:06:07.089Z'],
      ['T-2', null],
    ]);
    for (const r of rows) expect(r.createdAt).toBe(r.raw.toISOString());
  });
});
