import { eq } from 'drizzle-orm';
import type { DeviceStatus } from '@app/contract';
import type { Tx } from '../db/client';
import { adminUsers, devices, institutions, roleMenus, roles } from '../db/schema';
import { hashPassword } from '../lib/crypto';
import { pathOf } from '../modules/institutions';
import { menuIdsBySign } from './menus';
import { seededRandom } from '../lib/random';
import { DAY } from '../lib/time';

export const DEMO_PASSWORD = 'demo1234';

/** The seeded role that holds everything; exported for the admin:create command. */
export async function ensureSuperRole(db: Tx) {
  const [found] = await db.select().from(roles).where(eq(roles.isSuper, true));
  if (found) return found;
  const [row] = await db.insert(roles).values({ name: 'Super administrator', description: 'Every menu and button', isSuper: true }).returning();
  return row!;
}

interface DemoInstitution {
  key: string;
  name: string;
  grade: 1 | 2 | 3;
  parent: string | null;
  contact: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  termDays: number;
}

export const DEMO_INSTITUTIONS: DemoInstitution[] = [
  { key: 'agent1', name: 'East China Regional Agency', grade: 1, parent: null, contact: 'Wang Lei', phone: '13800138001', province: '310000', city: '310100', district: '310104', termDays: 365 },
  { key: 'agent2', name: 'Hangzhou Sub-agency', grade: 2, parent: 'agent1', contact: 'Li Na', phone: '13800138002', province: '330000', city: '330100', district: '330106', termDays: 300 },
  { key: 'clinic3', name: 'West Lake Wellness Clinic', grade: 3, parent: 'agent2', contact: 'Zhang Wei', phone: '13800138003', province: '330000', city: '330100', district: '330106', termDays: 200 },
  { key: 'overdue3', name: 'Binjiang Health Store', grade: 3, parent: 'agent2', contact: 'Chen Jing', phone: '13800138004', province: '330000', city: '330100', district: '330108', termDays: -10 },
  { key: 'agent1b', name: 'South China Regional Agency', grade: 1, parent: null, contact: 'Huang Min', phone: '13900139001', province: '440000', city: '440100', district: '440106', termDays: 365 },
  { key: 'agent2b', name: 'Guangzhou Sub-agency', grade: 2, parent: 'agent1b', contact: 'Zhou Tao', phone: '13900139002', province: '440000', city: '440100', district: '440104', termDays: 300 },
  { key: 'clinic3b', name: 'Tianhe Recovery Clinic', grade: 3, parent: 'agent2b', contact: 'Wu Fang', phone: '13900139003', province: '440000', city: '440100', district: '440106', termDays: 250 },
];

export async function seedFoundation(db: Tx) {
  const password = await hashPassword(DEMO_PASSWORD);
  const superRole = await ensureSuperRole(db);
  const [auditorRole] = await db.insert(roles).values({ name: 'Auditor', description: 'Reads and exports devices and inspections; no edit buttons' }).returning();
  const auditorMenus = await menuIdsBySign(db, ['Dashboard', 'DeviceList', 'device:export', 'Inspection', 'InspectionList', 'InspectionReport', 'InspectionResult', 'inspection:export']);
  await db.insert(roleMenus).values(auditorMenus.map((menuId) => ({ roleId: auditorRole!.id, menuId })));
  await db.insert(adminUsers).values([
    { username: 'admin', name: 'Platform Administrator', phone: '13700137000', passwordHash: password, roleId: superRole.id },
    { username: 'auditor', name: 'Audit Officer', phone: '13700137001', passwordHash: password, roleId: auditorRole!.id },
  ]);

  const now = Date.now();
  const ids = new Map<string, { id: number; path: string }>();
  for (const d of DEMO_INSTITUTIONS) {
    const parent = d.parent ? ids.get(d.parent)! : null;
    const [row] = await db
      .insert(institutions)
      .values({
        name: d.name,
        grade: d.grade,
        parentId: parent?.id ?? null,
        username: d.key,
        passwordHash: password,
        contactName: d.contact,
        phone: d.phone,
        province: d.province,
        city: d.city,
        district: d.district,
        address: `${d.contact} Road ${d.phone.slice(-2)}`,
        termExpiresAt: new Date(now + d.termDays * DAY),
      })
      .returning({ id: institutions.id });
    const path = pathOf(parent?.path ?? null, row!.id);
    await db.update(institutions).set({ path }).where(eq(institutions.id, row!.id));
    ids.set(d.key, { id: row!.id, path });
  }

  // Demo devices: some in platform stock, the rest spread over every institution, with varied states.
  const rnd = seededRandom(20261122);
  const owners: (string | null)[] = [null, 'agent1', 'agent2', 'clinic3', 'clinic3', 'overdue3', 'agent1b', 'agent2b', 'clinic3b', 'clinic3b'];
  const models = ['BE-100', 'BE-200', 'BE-300 Pro'];
  const names = ['Front desk', 'Room A', 'Room B', 'Mobile unit', 'Therapy bay', 'Reception'];
  const rows = Array.from({ length: 60 }, (_, i) => {
    const owner = owners[i % owners.length]!;
    const status: DeviceStatus = owner === null ? 'inactive' : i % 13 === 0 ? 'disabled' : 'active';
    const activatedAt = status === 'inactive' ? null : new Date(now - rnd.int(20, 400) * DAY);
    // A spread of expiries: some past, several within 30 days, most later.
    const expiresAt = activatedAt ? new Date(now + (i % 7 === 0 ? -rnd.int(1, 40) : i % 5 === 0 ? rnd.int(1, 29) : rnd.int(31, 365)) * DAY) : null;
    const countBased = i % 3 === 0;
    return {
      serial: `BE${String(240001 + i)}`,
      model: rnd.pick(models),
      name: owner ? `${rnd.pick(names)} ${1 + (i % 4)}` : `Stock unit ${String(i).padStart(2, '0')}`,
      institutionId: owner ? ids.get(owner)!.id : null,
      status,
      activatedAt,
      expiresAt,
      remainingUses: countBased && activatedAt ? rnd.int(0, 300) : null,
      totalInspections: activatedAt ? rnd.int(0, 2000) : 0,
      lastSeenAt: activatedAt ? new Date(now - rnd.int(0, 20 * 24 * 60) * 60_000) : null,
      // The firmware each device last reported (X-Device-Version), by position: no draw of its own, so the other values stay as they were.
      reportedVersion: activatedAt ? ['2.4.1', '2.5.0', '3.0.2'][i % 3]! : null,
      createdAt: new Date(now - (400 - i) * DAY),
      remark: '',
    };
  });
  await db.insert(devices).values(rows);
  return { institutions: ids };
}
