import type { Tx } from '../../db/client';
import { packages } from '../../db/schema';
import { DAY } from '../../lib/time';

export const order = 50;

/** Demo packages: count and time packages, mostly on sale, with typical commission rates. */
export async function seed(tx: Tx) {
  const now = Date.now();
  const rows: (typeof packages.$inferInsert)[] = [
    {
      name: '10 inspections',
      kind: 'count',
      uses: 10,
      priceCents: 9_900,
      commissionRateL1Bp: 2000,
      commissionRateL2Bp: 1000,
      status: 'on_sale',
      sortOrder: 10,
      description: 'Ten inspections, no expiry.',
    },
    {
      name: '30 inspections',
      kind: 'count',
      uses: 30,
      priceCents: 26_800,
      commissionRateL1Bp: 2000,
      commissionRateL2Bp: 1000,
      status: 'on_sale',
      sortOrder: 20,
      description: 'Thirty inspections at a lower price per use.',
    },
    { name: '100 inspections', kind: 'count', uses: 100, priceCents: 79_900, commissionRateL1Bp: 1800, commissionRateL2Bp: 800, status: 'on_sale', sortOrder: 30, description: 'For busy clinics.' },
    {
      name: '30 days unlimited',
      kind: 'time',
      days: 30,
      priceCents: 19_900,
      commissionRateL1Bp: 2000,
      commissionRateL2Bp: 1000,
      status: 'on_sale',
      sortOrder: 40,
      description: 'Unlimited inspections for 30 days.',
    },
    {
      name: '365 days unlimited',
      kind: 'time',
      days: 365,
      priceCents: 168_000,
      commissionRateL1Bp: 1500,
      commissionRateL2Bp: 1000,
      status: 'on_sale',
      sortOrder: 50,
      description: 'Unlimited inspections for a year.',
    },
    {
      name: 'Trial: 1 inspection',
      kind: 'count',
      uses: 1,
      priceCents: 0,
      commissionRateL1Bp: 0,
      commissionRateL2Bp: 0,
      status: 'off_sale',
      sortOrder: 60,
      description: 'Free trial, kept off sale outside promotions.',
    },
  ];
  // biome-ignore lint/plugin/no-property-after-spread: demo data, seeded once
  await tx.insert(packages).values(rows.map((r, i) => ({ ...r, createdAt: new Date(now - (120 - i * 10) * DAY) })));
}
