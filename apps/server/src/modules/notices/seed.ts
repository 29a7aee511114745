import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { branchApplications, institutions, payouts } from '../../db/schema';
import { checkNotices } from './check';
import { moneyText } from '../../lib/labels';
import { raiseNotice } from './raise';

/** After every other module's data: the notices the demo data calls for. */
export const order = 100;

/**
 * The pending payouts and branch applications announced to their deciders (the demo data writes them
 * without going through the calls that would), then the scheduled check once (devices offline, expiring,
 * low on uses; institutions whose term is ending).
 */
export async function seed(tx: Tx) {
  const pending = await tx
    .select({ id: payouts.id, institutionId: payouts.institutionId, amount: payouts.amountCents, name: institutions.name })
    .from(payouts)
    .innerJoin(institutions, eq(institutions.id, payouts.institutionId))
    .where(eq(payouts.status, 'pending'));
  for (const p of pending) await raiseNotice(tx, { kind: 'payout_pending', thingId: p.id, institutionId: p.institutionId, params: { institution: p.name, amount: moneyText(Number(p.amount)) } });
  const applications = await tx
    .select({ id: branchApplications.id, applicantId: branchApplications.applicantId, name: branchApplications.name, username: branchApplications.username, applicant: institutions.name })
    .from(branchApplications)
    .innerJoin(institutions, eq(institutions.id, branchApplications.applicantId))
    .where(eq(branchApplications.state, 'pending'));
  for (const a of applications)
    await raiseNotice(tx, { kind: 'application_pending', thingId: a.id, institutionId: a.applicantId, params: { name: a.name, username: a.username, applicant: a.applicant } });
  await checkNotices(tx);
}
