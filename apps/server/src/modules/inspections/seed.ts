import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { type DeviceInspectionBody, MERIDIANS, type Meridian } from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { devices, doctors, endUsers } from '../../db/schema';
import { seededRandom } from '../../lib/random';
import { DAY } from '../../lib/time';
import { assertWorking, inspect } from '../deviceapi';
import { together } from '../../db/together';

/** After every module whose data an inspection names (devices, people, master data, payments). */
export const order = 95;

/** How many demo inspections: over the last five months, on the working demo devices of clinics with people. */
export const DEMO_INSPECTIONS = 200;
/** The device simulator's demo device keeps its 500 uses (README): the demo inspections use the others. */
const KEEP_UNTOUCHED = 'BE-DEMO-0001';

type Rnd = ReturnType<typeof seededRandom>;

/**
 * 24 readings: everyone around a personal level, then (most of the time) one to three meridians pushed
 * high, low or apart, so the reports show a spread of findings.
 */
export function demoReadings(rnd: Rnd): Record<Meridian, [number, number]> {
  const level = rnd.int(70, 130);
  const out = Object.fromEntries(MERIDIANS.map((m) => [m, [level + rnd.int(-8, 8), level + rnd.int(-8, 8)]])) as Record<Meridian, [number, number]>;
  const changes = rnd.next() < 0.25 ? 0 : rnd.int(1, 3);
  for (let i = 0; i < changes; i++) {
    const m = rnd.pick(MERIDIANS);
    const [l, r] = out[m];
    const kind = rnd.int(0, 2);
    if (kind === 0) out[m] = [l + rnd.int(25, 60), r + rnd.int(25, 60)];
    else if (kind === 1) out[m] = [Math.max(0, l - rnd.int(25, 55)), Math.max(0, r - rnd.int(25, 55))];
    else out[m] = [l, Math.max(0, Math.floor(r / rnd.int(2, 4)) - 1)];
  }
  for (const m of MERIDIANS) out[m] = [Math.min(200, out[m][0]), Math.min(200, out[m][1])];
  return out;
}

/**
 * About 200 inspections through the device API's own `inspect` (so the analyses are real, uses are spent
 * and the people's and doctors' counts move as they would): each on a working demo device, for a person
 * and (mostly) a doctor of the device's institution, measured at a time over the last five months.
 */
export async function seed(tx: Tx) {
  const rnd = seededRandom(20261212);
  const now = Date.now();
  const candidates = await tx
    .select()
    .from(devices)
    .where(and(eq(devices.status, 'active'), ne(devices.serial, KEEP_UNTOUCHED)))
    .orderBy(asc(devices.id));
  const owners = [...new Set(candidates.flatMap((d) => (d.institutionId == null ? [] : [d.institutionId])))];
  if (!owners.length) return;
  const [people, staff] = await together(tx, [
    () =>
      tx
        .select({ id: endUsers.id, institutionId: endUsers.institutionId })
        .from(endUsers)
        .where(and(inArray(endUsers.institutionId, owners), isNull(endUsers.deletedAt)))
        .orderBy(asc(endUsers.id)),
    () =>
      tx
        .select({ id: doctors.id, institutionId: doctors.institutionId })
        .from(doctors)
        .where(and(inArray(doctors.institutionId, owners), eq(doctors.status, 'enabled'), isNull(doctors.deletedAt)))
        .orderBy(asc(doctors.id)),
  ]);
  const working = candidates.filter((d) => people.some((p) => p.institutionId === d.institutionId));
  if (!working.length) return;
  // Times in order, oldest first, so the numbers of each device rise with time.
  const times = Array.from({ length: DEMO_INSPECTIONS }, () => now - rnd.int(1, 150 * 24 * 60) * 60_000).sort((a, b) => a - b);
  let seq = 0;
  for (const at of times) {
    seq++;
    const start = rnd.int(0, working.length - 1);
    // The first device from a random start that still works now (a count-based one may run out).
    let device: typeof devices.$inferSelect | undefined;
    for (let k = 0; k < working.length && !device; k++) {
      const [row] = await tx
        .select()
        .from(devices)
        .where(eq(devices.id, working[(start + k) % working.length]!.id));
      try {
        assertWorking(row!, true, now);
        device = row;
      } catch {
        /* expired or used up: the next one */
      }
    }
    if (!device) return;
    const mine = people.filter((p) => p.institutionId === device.institutionId);
    const theirDoctors = staff.filter((d) => d.institutionId === device.institutionId);
    const body: DeviceInspectionBody = {
      inspection_no: `DEMO-${device.serial}-${String(seq).padStart(4, '0')}`,
      measured_at: new Date(Math.min(at, now - DAY / 24)).toISOString(),
      doctor_id: theirDoctors.length && rnd.next() < 0.85 ? rnd.pick(theirDoctors).id : null,
      user: { id: rnd.pick(mine).id },
      readings: demoReadings(rnd),
    };
    // inspect() opens its own transaction: inside the seed's, that is a savepoint.
    await inspect(tx as Db, device, body);
  }
}
