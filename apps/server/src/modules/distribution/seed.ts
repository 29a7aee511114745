import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

export const order = 99;

/**
 * Demo data: how the demo devices reached their owners. Every device an institution holds came from
 * platform stock in one move per owner and week, a few days before it was activated (or created), by the
 * first admin; so the distribution records and the distribution stats have something to show.
 */
export async function seed(tx: Tx) {
  await tx.execute(sql`
    with moved as (
      select d.id as device_id, d.institution_id as owner,
             date_trunc('week', coalesce(d.activated_at, d.created_at) - interval '3 days') + interval '10 hours' as at
      from devices d where d.institution_id is not null),
    groups as (
      select owner, at, array_agg(device_id order by device_id) as ids from moved group by owner, at),
    admin as (select id, username from admin_users order by id limit 1),
    records as (
      insert into distribution_records (from_institution_id, to_institution_id, device_count, operator_id, operator_name, remark, created_at)
      select null, g.owner, cardinality(g.ids), admin.id, admin.username, 'Demo delivery', least(g.at, now()) from groups g, admin
      returning id, to_institution_id, created_at)
    insert into distribution_lines (record_id, device_id, from_institution_id, to_institution_id)
    select r.id, unnest(g.ids), null, g.owner from records r join groups g on g.owner = r.to_institution_id and least(g.at, now()) = r.created_at`);
}
