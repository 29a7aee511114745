/** Finance: the summary and the ledger (finance records): list and export, scoped to the caller's subtree. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { FinanceSummary, FinanceSummaryQuery, LedgerExportQuery, LedgerListQuery, LedgerRow, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { financeAccounts, institutions, ledgerEntries, payouts } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { type ExportColumn, exportList as exportRows, dateCell } from '../../lib/export';
import { cappedCount, offsetOf, sortBy, sortKey, rowsOf } from '../../lib/list';
import { LABELS, institutionFilter, label, scoped, yuan, dateRange } from './shared';

/**
 * GET /finance/summary (fixed): an institution's balance, its ledger's sum (always equal) and its pending
 * payouts. Grades 1-2: their own. Grade 0: the named institution, or the platform's totals over all.
 */
export async function summary(db: Tx, auth: Auth, q: FinanceSummaryQuery): Promise<FinanceSummary> {
  const target = auth.kind === 'institution' ? auth.institution.id : (q.institution_id ?? null);
  const only = (column: AnyPgColumn) => (target == null ? sql`true` : sql`${column} = ${target}`);
  const [row] = rowsOf<{ balance: string | number; ledger: string | number; pending: string | number }>(
    await db.execute(sql`select
      (select coalesce(sum(${financeAccounts.balanceCents}), 0) from ${financeAccounts} where ${only(financeAccounts.institutionId)}) as balance,
      (select coalesce(sum(${ledgerEntries.amountCents}), 0) from ${ledgerEntries} where ${only(ledgerEntries.institutionId)}) as ledger,
      (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payouts.status} = 'pending' and ${only(payouts.institutionId)}) as pending`),
  );
  return { balance_cents: Number(row?.balance ?? 0), ledger_sum_cents: Number(row?.ledger ?? 0), pending_payout_cents: Number(row?.pending ?? 0) };
}

const ledgerInst = alias(institutions, 'ledger_inst');
const LEDGER_SORTS = { created_at: ledgerEntries.id, amount: ledgerEntries.amountCents } as const;

async function ledgerConditions(db: Tx, auth: Auth, q: Partial<LedgerListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, ledgerEntries.institutionId),
    q.institution_id ? eq(ledgerEntries.institutionId, q.institution_id) : undefined,
    q.kind ? eq(ledgerEntries.kind, q.kind) : undefined,
    ...dateRange(ledgerEntries.createdAt, q.date_from, q.date_to),
  );
}

async function ledgerRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<LedgerRow[]> {
  const rows = await db
    .select({ e: ledgerEntries, name: ledgerInst.name })
    .from(ledgerEntries)
    .innerJoin(ledgerInst, eq(ledgerInst.id, ledgerEntries.institutionId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ e, name }) => ({
    id: e.id,
    institution_id: e.institutionId,
    institution_name: name,
    kind: e.kind,
    amount_cents: Number(e.amountCents),
    balance_after_cents: Number(e.balanceAfterCents),
    ref_type: e.refType,
    ref_id: e.refId,
    created_at: e.createdAt.toISOString(),
  }));
}

/** GET /finance/list (fixed): ledger rows of the caller's subtree, newest first. */
export async function list(db: Tx, auth: Auth, q: LedgerListQuery): Promise<ListResult<LedgerRow>> {
  const where = await ledgerConditions(db, auth, q);
  const [list, count] = await Promise.all([
    ledgerRows(db, where, sortBy(LEDGER_SORTS, q, 'created_at', ledgerEntries.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${ledgerEntries} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

/** GET /finance/export: the filtered ledger rows, in the list's order, as CSV or XLSX; amounts in yuan. */
export async function exportList(db: Tx, auth: Auth, q: LedgerExportQuery, ctx: Ctx) {
  const where = await ledgerConditions(db, auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<LedgerRow>[] = [
    { title: label(LABELS.time, lang), value: (r) => dateCell(r.created_at), width: 20 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.kind, lang), value: (r) => label(LABELS.kinds[r.kind], lang), width: 16 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.balanceAfter, lang), value: (r) => yuan(r.balance_after_cents) },
    { title: label(LABELS.ref, lang), value: (r) => (r.ref_type ? `${label(LABELS.refs[r.ref_type], lang)} #${r.ref_id ?? ''}` : ''), width: 16 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'finance-records',
    sheet: label(LABELS.ledgerSheet, lang),
    columns,
    where,
    key: sortKey(LEDGER_SORTS, q, 'created_at', ledgerEntries.id),
    fetch: (w, order, limit) => ledgerRows(db, w, order, limit, 0),
    count: sql`from ${ledgerEntries} where ${where ?? sql`true`}`,
  });
}

/** GET /payout/export: the filtered payouts, in the list's order, as CSV or XLSX; amounts in yuan, account numbers masked. */
