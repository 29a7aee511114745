/**
 * A model-based property test (fast-check `fc.commands` + `fc.asyncModelRun`) of the money rules: random
 * sequences of device payments, refunds, payout applications, approvals, rejections and cancellations,
 * run through the service functions on real PostgreSQL, against a model of the balances. After every
 * step: each balance equals its ledger sum and the model's, none is negative, every outcome (accepted
 * or refused) is the one the model predicts, and no ledger row written before has changed.
 */
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionCents } from '@app/contract';
import { devices, financeAccounts, ledgerEntries, packages } from '../../db/schema';
import type { AppError } from '../../lib/errors';
import { createTestApp, type TestApp } from '../../test/harness';
import { recordDevicePayment, refundPayment } from './payments';
import { recordPayoutApplication, decidePayout } from './payouts';

let t: TestApp;
let agent1: number;
let agent2: number;
let device: number;
const PRICES = [999, 1, 12_345, 50_000];
const pkgs: { id: number; price: number; l1: number; l2: number }[] = [];
let order = 0;

beforeAll(async () => {
  t = await createTestApp();
  agent1 = await t.institutionId('agent1');
  agent2 = await t.institutionId('agent2');
  const clinic = await t.institutionId('clinic3');
  const [d] = await t.db.insert(devices).values({ serial: 'PROP-1', institutionId: clinic, status: 'active', remainingUses: 0 }).returning();
  device = d!.id;
  for (const [i, price] of PRICES.entries()) {
    const l1 = [1500, 5000, 2000, 1800][i]!;
    const l2 = [750, 5000, 1000, 800][i]!;
    const [p] = await t.db
      .insert(packages)
      .values({ name: `Prop ${i}`, kind: 'count', uses: 1 + i, priceCents: price, commissionRateL1Bp: l1, commissionRateL2Bp: l2, status: 'on_sale' })
      .returning();
    pkgs.push({ id: p!.id, price, l1, l2 });
  }
});
afterAll(async () => {
  await t?.close();
});

interface Model {
  balance: Map<number, number>;
  payments: { id: number; l1: number; l2: number; refunded: boolean }[];
  payouts: { id: number; who: number; amount: number; status: 'pending' | 'paid' | 'rejected' | 'cancelled' }[];
}
interface Real {
  /** Every ledger row of the two agents seen so far, by id: none may change. */
  seen: Map<number, string>;
}

const balances = async () => {
  const rows = await t.db
    .select()
    .from(financeAccounts)
    .where(inArray(financeAccounts.institutionId, [agent1, agent2]));
  return new Map(rows.map((r) => [r.institutionId, Number(r.balanceCents)]));
};

let steps = 0;
async function check(m: Model, r: Real) {
  steps++;
  const real = await balances();
  const rows = await t.db
    .select()
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.institutionId, [agent1, agent2]));
  for (const who of [agent1, agent2]) {
    const b = real.get(who) ?? 0;
    expect(b).toBeGreaterThanOrEqual(0);
    expect(b).toBe(m.balance.get(who) ?? 0);
    expect(b).toBe(rows.filter((l) => l.institutionId === who).reduce((s, l) => s + Number(l.amountCents), 0));
  }
  const now = new Map(rows.map((l) => [l.id, JSON.stringify([l.institutionId, l.kind, l.amountCents, l.balanceAfterCents, l.refType, l.refId, l.createdAt])]));
  for (const [id, text] of r.seen) expect(now.get(id)).toBe(text);
  r.seen = now;
}

const refusal = (e: unknown) => (e as AppError).messageKey;
const add = (m: Model, who: number, d: number) => m.balance.set(who, (m.balance.get(who) ?? 0) + d);

class Pay implements fc.AsyncCommand<Model, Real> {
  constructor(readonly p: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const pkg = pkgs[this.p]!;
    const res = await t.db.transaction((tx) => recordDevicePayment(tx, { deviceId: device, packageId: pkg.id, amountCents: pkg.price, orderNo: `P${++order}`, channel: 'cash', paidAt: new Date() }));
    const l1 = commissionCents(pkg.price, pkg.l1);
    const l2 = Math.min(commissionCents(pkg.price, pkg.l2), pkg.price - l1);
    add(m, agent1, l1);
    add(m, agent2, l2);
    m.payments.push({ id: res.recordId, l1, l2, refunded: false });
    await check(m, r);
  }
  toString = () => `pay(${PRICES[this.p]})`;
}

class Refund implements fc.AsyncCommand<Model, Real> {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real) {
    const p = m.payments[this.k % m.payments.length]!;
    const expectOk = !p.refunded && (m.balance.get(agent1) ?? 0) >= p.l1 && (m.balance.get(agent2) ?? 0) >= p.l2;
    const outcome = await t.db
      .transaction((tx) => refundPayment(tx, p.id, 'prop', null))
      .then(() => 'ok')
      .catch(refusal);
    if (expectOk) {
      expect(outcome).toBe('ok');
      p.refunded = true;
      add(m, agent1, -p.l1);
      add(m, agent2, -p.l2);
    } else expect(outcome).toBe(p.refunded ? 'paymentRefunded' : 'refundWouldOverdraw');
    await check(m, r);
  }
  toString = () => `refund(${this.k})`;
}

class Apply implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly second: boolean,
    readonly permille: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const who = this.second ? agent2 : agent1;
    const have = m.balance.get(who) ?? 0;
    // From a share of the balance to a little over it.
    const amount = Math.max(1, Math.floor((have * this.permille) / 1000));
    const outcome = await t.db
      .transaction((tx) => recordPayoutApplication(tx, who, { amount_cents: amount, bank: 'B', account_name: 'N', account_no: '12345678' }, 1))
      .then((id) => id)
      .catch(refusal);
    if (amount <= have) {
      expect(typeof outcome).toBe('number');
      add(m, who, -amount);
      m.payouts.push({ id: outcome as number, who, amount, status: 'pending' });
    } else expect(outcome).toBe('payoutOverBalance');
    await check(m, r);
  }
  toString = () => `apply(${this.second ? 'agent2' : 'agent1'}, ${this.permille}‰)`;
}

class Decide implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly k: number,
    readonly what: 'paid' | 'rejected' | 'cancelled',
  ) {}
  check = (m: Readonly<Model>) => m.payouts.length > 0;
  async run(m: Model, r: Real) {
    const p = m.payouts[this.k % m.payouts.length]!;
    const decision = this.what === 'paid' ? ({ status: 'paid', voucher: '' } as const) : this.what === 'rejected' ? ({ status: 'rejected', reason: 'r' } as const) : ({ status: 'cancelled' } as const);
    const outcome = await t.db
      .transaction((tx) => decidePayout(tx, p.id, decision, 'prop', this.what === 'cancelled' ? { onlyInstitution: p.who } : {}))
      .then(() => 'ok')
      .catch(refusal);
    if (p.status === 'pending') {
      expect(outcome).toBe('ok');
      p.status = this.what;
      if (this.what !== 'paid') add(m, p.who, p.amount);
    } else expect(outcome).toBe('payoutDecided');
    await check(m, r);
  }
  toString = () => `${this.what}(${this.k})`;
}

const commands = [
  fc.integer({ min: 0, max: PRICES.length - 1 }).map((p) => new Pay(p)),
  fc.integer({ min: 0, max: 50 }).map((k) => new Refund(k)),
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 1200 })).map(([s, p]) => new Apply(s, p)),
  fc.tuple(fc.integer({ min: 0, max: 50 }), fc.constantFrom('paid' as const, 'rejected' as const, 'cancelled' as const)).map(([k, w]) => new Decide(k, w)),
];

describe('the ledger under random sequences', () => {
  it('keeps balance = ledger sum >= 0, outcomes as modelled, and every written row unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const start = await balances();
        const real: Real = { seen: new Map() };
        const model: Model = {
          balance: new Map([
            [agent1, start.get(agent1) ?? 0],
            [agent2, start.get(agent2) ?? 0],
          ]),
          payments: [],
          payouts: [],
        };
        await check(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 50 },
    );
    // The runs were not vacuous: many steps were checked.
    expect(steps).toBeGreaterThan(100);
  }, 120_000);
});
