import { sql } from 'drizzle-orm';
import type { FinanceStatsAnswer, FinanceStatsQuery } from '@app/contract';
import type { Tx } from '../../db/client';
import { financeAccounts, institutions, packages, payouts, statsLedgerDaily, statsPaymentsDaily } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, forbidden } from '../../lib/errors';
import { rowsOf } from '../../lib/list';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { TOP, categories, dayOf, daysInRange, inRange, namedPoints, num, rangeOf, timeSeries, timeSeriesOf, total } from './figures';

/* The finance stats page (GET /stats/finance), from the payments' and the ledger's daily roll-ups. */

/** Whose finance a call is about: grades 1-2 their own (or one of their subtree); grade 0 any institution, or the platform. */
async function financeTarget(db: Tx, auth: Auth, requested: number | undefined) {
  let id = requested;
  if (auth.kind === 'institution') {
    const own = auth.institution;
    if (id && id !== own.id && !(await isInSubtree(db, own.path, id))) throw forbidden();
    id ??= own.id;
  }
  if (!id) return null;
  const [row] = rowsOf<{ id: number; path: string; grade: number; name: string }>(
    await db.execute(
      sql`select ${institutions.id} as id, ${institutions.path} as path, ${institutions.grade} as grade, ${institutions.name} as name from ${institutions} where ${institutions.id} = ${id}`,
    ),
  );
  if (!row) throw badRequest('statsInstitutionMissing');
  return row;
}

/**
 * GET /stats/finance: for one institution (or, grade 0 without one, the platform): income (paid payments
 * of its subtree), its commission (the platform: its share) by bucket, by package and by child
 * institution, its payouts by state, and its balance at the end of each bucket from the ledger.
 * Payments and the ledger are read from their daily roll-ups: a roll-up row holds the payments of one
 * paying institution, package and pair of commission holders, so every figure (scope, share, package,
 * child) is a function of its key and its sums are the payments' sums; any range is whole UTC days.
 */
export async function finance(db: Tx, auth: Auth, q: FinanceStatsQuery): Promise<FinanceStatsAnswer> {
  const r = rangeOf(q);
  const target = await financeTarget(db, auth, q.institution_id);
  const rootPath = target?.path ?? '/';
  const p = statsPaymentsDaily;
  const ledger = statsLedgerDaily;
  const paidScope = target ? sql`${p.institutionId} in ${institutionSubtreeIds(target.path)}` : sql`true`;
  // Its commission on a payment: its own line (l1 or l2); the platform's remainder when there is no target.
  const share = target
    ? sql`(case when ${p.l1InstitutionId} = ${target.id} then ${p.l1Cents} else 0 end + case when ${p.l2InstitutionId} = ${target.id} then ${p.l2Cents} else 0 end)`
    : sql`${p.platformCents}`;
  const ledgerScope = target ? sql`${ledger.institutionId} = ${target.id}` : sql`true`;
  const payoutScope = target ? sql`${payouts.institutionId} = ${target.id}` : sql`true`;
  const accountScope = target ? sql`${financeAccounts.institutionId} = ${target.id}` : sql`true`;
  const [[income, commission], byPackage, byChild, payoutRows, kpiRows, balanceRows] = await Promise.all([
    timeSeriesOf(db, r, sql`from ${p} where ${paidScope}`, { day: p.day }, [sql`sum(${p.amountCents})`, sql`sum(${share})`]),
    db.execute(sql`select x.package_id as key, pk.name as label, x.value from (
        select ${p.packageId} as package_id, sum(${share}) as value from ${p} where ${paidScope} and ${daysInRange(p.day, r)} group by 1) x
      join ${packages} pk on pk.id = x.package_id where x.value > 0 order by x.value desc, 1 limit ${TOP}`),
    // The child on the path from the target down to the paying institution (the target itself: its own devices).
    db.execute(sql`with x as (
        select nullif(split_part(substr(i.path, ${rootPath.length + 1}), '/', 1), '')::int as child, sum(${share}) as value
        from ${p} join ${institutions} i on i.id = ${p.institutionId} where ${paidScope} and ${daysInRange(p.day, r)} group by 1)
      select coalesce(x.child, ${target?.id ?? null}::int) as key, c.name as label, x.value from x left join ${institutions} c on c.id = coalesce(x.child, ${target?.id ?? null}::int)
      where x.value > 0 order by x.value desc, 1 limit ${TOP}`),
    db.execute(sql`select ${payouts.status} as key, sum(${payouts.amountCents}) as value from ${payouts} where ${payoutScope} and ${inRange(payouts.createdAt, r)} group by 1`),
    db.execute(sql`select
        (select coalesce(sum(${financeAccounts.balanceCents}), 0) from ${financeAccounts} where ${accountScope}) as balance,
        (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payoutScope} and ${payouts.status} = 'pending') as pending,
        (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payoutScope} and ${payouts.status} = 'paid' and ${inRange(payouts.decidedAt, r)}) as paid,
        (select coalesce(sum(${ledger.amountCents}), 0) from ${ledger} where ${ledgerScope} and ${ledger.day} < ${dayOf(r.start)}::date) as opening`),
    timeSeries(db, r, sql`from ${ledger} where ${ledgerScope}`, { day: ledger.day }, sql`sum(${ledger.amountCents})`),
  ]);
  const k = rowsOf<{ balance: string; pending: string; paid: string; opening: string }>(kpiRows)[0];
  // The balance at the end of each bucket: what came before the range plus the running sum of the ledger.
  let running = num(k?.opening);
  const balance = balanceRows.map((b) => {
    running += b.value;
    return { key: b.key, value: running };
  });
  if (!income || !commission) throw new Error('two series expected');
  return {
    range: r.echo,
    institution: target ? { id: target.id, name: target.name, grade: target.grade } : null,
    kpis: { income: total(income), commission: total(commission), balance: num(k?.balance), pendingPayouts: num(k?.pending), paidPayouts: num(k?.paid) },
    series: {
      income,
      commission,
      byPackage: namedPoints(rowsOf(byPackage)),
      byChild: namedPoints(rowsOf(byChild)),
      payouts: categories(rowsOf(payoutRows), ['pending', 'paid', 'rejected', 'cancelled']),
      balance,
    },
  };
}
