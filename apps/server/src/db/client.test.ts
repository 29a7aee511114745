import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './client';

const url = process.env.DATABASE_URL;

describe('PostgreSQL pool', () => {
  it('survives the server ending an idle connection and answers the next query', async () => {
    const lost: Error[] = [];
    const database = await openPostgres(url!, { onIdleError: (err) => lost.push(err) });
    try {
      const [row] = ((await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows;
      // The connection is idle in the pool now; end it from the server side, as a restart would.
      const killer = new pg.Client({ connectionString: url });
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [row!.pid]);
      await killer.end();
      for (let i = 0; i < 50 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(lost).toHaveLength(1);
      const again = ((await database.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] }).rows;
      expect(again[0]!.one).toBe(1);
    } finally {
      await database.close();
    }
  });
});
