import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { adminUsers, branchApplications, institutions } from '../../db/schema';
import { DAY } from '../../lib/time';

export const order = 20;

/**
 * Branch applications in each state: two pending (agent2 for a Hangzhou store, agent1b for a Shenzhen
 * sub-agency), one rejected (agent1), and the approved one that created clinic3b under agent2b.
 */
export async function seed(tx: Tx) {
  const names = ['agent1', 'agent2', 'agent1b', 'agent2b', 'clinic3b'];
  const ids = new Map((await tx.select({ id: institutions.id, username: institutions.username }).from(institutions).where(inArray(institutions.username, names))).map((r) => [r.username, r.id]));
  if (names.some((n) => !ids.has(n))) return;
  const [admin] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, 'admin'));
  const now = Date.now();
  const at = (days: number) => new Date(now - days * DAY);
  await tx.insert(branchApplications).values([
    {
      applicantId: ids.get('agent2b')!,
      name: 'Tianhe Recovery Clinic',
      contactName: 'Wu Fang',
      phone: '13900139003',
      province: '440000',
      city: '440100',
      district: '440106',
      address: 'Wu Fang Road 03',
      username: 'clinic3b',
      state: 'approved',
      institutionId: ids.get('clinic3b')!,
      reviewedBy: admin?.id ?? null,
      reviewedAt: at(249),
      createdAt: at(251),
    },
    {
      applicantId: ids.get('agent1')!,
      name: 'Suzhou Sub-agency',
      contactName: 'Xu Ming',
      phone: '13800138021',
      province: '320000',
      city: '320500',
      district: '320508',
      address: 'Renmin Road 88',
      username: 'suzhou2',
      state: 'rejected',
      reason: 'Suzhou is already covered by another agency; apply for Wuxi instead.',
      reviewedBy: admin?.id ?? null,
      reviewedAt: at(12),
      createdAt: at(14),
    },
    {
      applicantId: ids.get('agent2')!,
      name: 'Xiaoshan Health Store',
      contactName: 'Zhao Qing',
      phone: '13800138022',
      province: '330000',
      city: '330100',
      district: '330109',
      address: 'Shixin Road 128',
      username: 'xiaoshan3',
      createdAt: at(3),
    },
    {
      applicantId: ids.get('agent1b')!,
      name: 'Shenzhen Sub-agency',
      contactName: 'Lin Hui',
      phone: '13900139021',
      province: '440000',
      city: '440300',
      district: '440305',
      address: 'Keyuan Road 9',
      username: 'shenzhen2',
      createdAt: at(1),
    },
  ]);
}
