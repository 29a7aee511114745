import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { devices, institutions, packages } from '../../db/schema';
import { readParam } from '../../lib/params';
import { balanceOf } from './ledger';
import { recordDevicePayment, refundPayment } from './payments';
import { recordPayoutApplication, decidePayout } from './payouts';
import { DAY } from '../../lib/time';

/** After the devices (foundation) and the codes (80). */
export const order = 90;

/** A small deterministic generator: the same demo history on every fresh database. */
function lcg(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

type Event = { at: number; run: (tx: Tx) => Promise<unknown> };

/**
 * Six months of money, produced through the service functions (never raw inserts), in time order:
 * payments on the active devices of every institution (mostly count packages on count devices, a few
 * time packages), their commissions, a few refunds the next day, and payouts of agent1, agent2,
 * agent1b and agent2b in every state (paid, rejected, cancelled, and one pending each). Ledger rows
 * carry the back-dated times, so balances and ledgers agree at every point of the history.
 */
export async function seed(tx: Tx) {
  const rnd = lcg(20261201);
  const now = Date.now();
  const inst = Object.fromEntries((await tx.select({ id: institutions.id, username: institutions.username }).from(institutions)).map((r) => [r.username, r.id]));
  const onSale = await tx
    .select()
    .from(packages)
    .where(and(eq(packages.status, 'on_sale'), isNull(packages.deletedAt)))
    .orderBy(asc(packages.sortOrder));
  const paid = onSale.filter((p) => p.priceCents > 0);
  const countPkgs = paid.filter((p) => p.kind === 'count');
  const timePkgs = paid.filter((p) => p.kind === 'time');
  if (!countPkgs.length) return;
  const active = await tx
    .select()
    .from(devices)
    .where(and(eq(devices.status, 'active'), isNotNull(devices.institutionId)))
    .orderBy(asc(devices.id));
  const minimum = await readParam(tx, 'min_payout_cents');
  const channels = ['wechat', 'wechat', 'alipay', 'alipay', 'card', 'cash'] as const;

  const events: Event[] = [];
  let order = 0;
  const refundsWanted = new Set([7, 41, 88]);
  for (const device of active) {
    const countBased = device.remainingUses != null;
    const n = countBased ? rnd.int(3, 7) : rnd.int(1, 2);
    for (let i = 0; i < n; i++) {
      const pkg = countBased || !timePkgs.length ? rnd.pick(countPkgs) : rnd.pick(timePkgs);
      const at = now - rnd.int(1, 180) * DAY + rnd.int(8 * 60, 20 * 60) * 60_000 - DAY;
      const seq = ++order;
      const orderNo = `DEMO${new Date(at).toISOString().slice(0, 10).replace(/-/g, '')}${String(seq).padStart(5, '0')}`;
      const channel = rnd.pick(channels);
      events.push({
        at,
        run: async (db) => {
          const result = await recordDevicePayment(db, { deviceId: device.id, packageId: pkg.id, orderNo, amountCents: pkg.priceCents, channel, paidAt: new Date(at) }, { at: new Date(at) });
          if (refundsWanted.has(seq)) {
            // Refunded the next day, after a complaint. In a savepoint: a refund the balance cannot cover is skipped.
            await db.transaction((sp) => refundPayment(sp, result.recordId, 'Customer complaint: charged twice', null, new Date(at + DAY))).catch(() => undefined);
          }
        },
      });
    }
  }

  // Payouts: every month each agent asks for most of its balance; decided three days later.
  const plan: { daysAgo: number; outcome: 'paid' | 'rejected' | 'cancelled' | 'pending' }[] = [
    { daysAgo: 150, outcome: 'paid' },
    { daysAgo: 120, outcome: 'rejected' },
    { daysAgo: 90, outcome: 'paid' },
    { daysAgo: 60, outcome: 'cancelled' },
    { daysAgo: 30, outcome: 'paid' },
    { daysAgo: 4, outcome: 'pending' },
  ];
  const banks = { agent1: 'Bank of China, Shanghai', agent2: 'ICBC Hangzhou', agent1b: 'China Merchants Bank, Guangzhou', agent2b: 'Bank of Guangzhou' } as const;
  for (const [username, bank] of Object.entries(banks)) {
    const id = inst[username];
    if (!id) continue;
    for (const step of plan) {
      const at = now - step.daysAgo * DAY + 10 * 3600_000;
      events.push({
        at,
        run: async (db) => {
          const balance = await balanceOf(db, id);
          const amount = Math.floor((balance * 0.6) / 100) * 100;
          if (amount < minimum) return;
          const body = { amount_cents: amount, bank, account_name: `${username} finance`, account_no: `62220210${String(id).padStart(4, '0')}${String(step.daysAgo).padStart(4, '0')}` };
          const payoutId = await recordPayoutApplication(db, id, body, minimum, new Date(at));
          if (step.outcome === 'pending') return;
          const decidedAt = new Date(at + 3 * DAY);
          const decision =
            step.outcome === 'paid'
              ? ({ status: 'paid', voucher: '' } as const)
              : step.outcome === 'rejected'
                ? ({ status: 'rejected', reason: 'Account name does not match the institution' } as const)
                : ({ status: 'cancelled' } as const);
          await decidePayout(db, payoutId, decision, step.outcome === 'cancelled' ? username : 'admin', { at: decidedAt, ...(step.outcome === 'cancelled' ? { onlyInstitution: id } : {}) });
        },
      });
    }
  }

  events.sort((a, b) => a.at - b.at);
  for (const event of events) await event.run(tx);
  return { payments: order };
}
