import { and, eq, sql } from 'drizzle-orm';
import type { LedgerKind, LedgerRefType } from '@app/contract';
import type { Tx } from '../../db/client';
import { financeAccounts, ledgerEntries } from '../../db/schema';

/*
 * The one way a balance changes. `post` runs the guarded statement
 *   UPDATE finance_accounts SET balance_cents = balance_cents + $d WHERE institution_id = $i AND balance_cents + $d >= 0 RETURNING balance_cents
 * and inserts the ledger row with that balance after, in the caller's transaction. Under READ COMMITTED a
 * concurrent UPDATE of the same row waits for the first to commit and then evaluates its WHERE on the new
 * balance, so no interleaving can overdraw; CHECK (balance_cents >= 0) is the backstop. Callers touching
 * several institutions post in ascending id order (no deadlock between two payments).
 */

export interface LedgerRef {
  type: LedgerRefType;
  id: number;
}

/** The new balance, or null when the change would make the balance negative (nothing was changed). */
export async function post(db: Tx, institutionId: number, amountCents: number, kind: LedgerKind, ref: LedgerRef, at?: Date): Promise<number | null> {
  if (!Number.isSafeInteger(amountCents) || amountCents === 0) throw new Error(`ledger: bad amount ${amountCents}`);
  const apply = () =>
    db
      .update(financeAccounts)
      .set({ balanceCents: sql`${financeAccounts.balanceCents} + ${amountCents}`, updatedAt: sql`now()` })
      .where(and(eq(financeAccounts.institutionId, institutionId), sql`${financeAccounts.balanceCents} + ${amountCents} >= 0`))
      .returning({ balance: financeAccounts.balanceCents });
  let [row] = await apply();
  if (!row && amountCents > 0) {
    // The institution's first credit: its account row appears at 0, then the same statement applies.
    await db.insert(financeAccounts).values({ institutionId, balanceCents: 0 }).onConflictDoNothing();
    [row] = await apply();
  }
  if (!row) return null;
  const balance = Number(row.balance);
  await db.insert(ledgerEntries).values({ institutionId, kind, amountCents, balanceAfterCents: balance, refType: ref.type, refId: ref.id, ...(at ? { createdAt: at } : {}) });
  return balance;
}

/** An institution's balance now (0 before its first credit). */
export async function balanceOf(db: Tx, institutionId: number): Promise<number> {
  const [row] = await db.select({ b: financeAccounts.balanceCents }).from(financeAccounts).where(eq(financeAccounts.institutionId, institutionId));
  return Number(row?.b ?? 0);
}
