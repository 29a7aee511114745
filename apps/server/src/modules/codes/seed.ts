import { and, asc, eq, inArray } from 'drizzle-orm';
import { maskCode } from '@app/contract';
import { loadConfig } from '../../config';
import type { Tx } from '../../db/client';
import { activationCodes, activationRecords, adminUsers, devices, institutions, packages } from '../../db/schema';
import { codeKeys } from './key';
import { createBatch } from './batches';
import { DAY } from '../../lib/time';

export const order = 80;

/**
 * Demo batches, so the story can be walked in the browser: an institution batch assigned to agent1 (two
 * codes used by clinic3 and agent2) and one to agent1b (one used by clinic3b), a device batch of the "100 inspections" package (some used on
 * clinic3's devices, some voided), an expired device batch, and a small institution batch held by
 * agent2 for `overdue3`, whose codes are all unused: the admin exports it (or reads a code from the
 * batch) and overdue3 redeems one from its overdue notice. Codes are sealed with the code key of the
 * server that seeds (CODE_KEY, or DATA_DIR/code.key), the key the same server later opens them with.
 */
export async function seed(tx: Tx) {
  const keys = codeKeys(loadConfig());
  const now = Date.now();
  const inst = Object.fromEntries((await tx.select({ id: institutions.id, username: institutions.username, term: institutions.termExpiresAt }).from(institutions)).map((r) => [r.username, r]));
  const [admin] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, 'admin'));
  const [pack] = await tx.select().from(packages).where(eq(packages.name, '100 inspections'));
  const clinicDevices = await tx
    .select()
    .from(devices)
    .where(and(eq(devices.institutionId, inst.clinic3!.id), eq(devices.status, 'active')))
    .orderBy(asc(devices.id))
    .limit(3);
  const createdBy = admin?.id ?? null;

  // 1. Institution codes, a year each, sold through agent1; two redeemed 60 and 20 days ago.
  const yearly = await createBatch(tx, keys, {
    scope: 'institution',
    days: 365,
    packageId: null,
    count: 10,
    validUntil: new Date(now + 300 * DAY),
    remark: 'Annual renewals, East China',
    createdBy,
    ownerInstitutionId: inst.agent1!.id,
    createdAt: new Date(now - 90 * DAY),
  });
  // The same for the second tree, through agent1b; one redeemed by clinic3b.
  const south = await createBatch(tx, keys, {
    scope: 'institution',
    days: 365,
    packageId: null,
    count: 5,
    validUntil: null,
    remark: 'Annual renewals, South China',
    createdBy,
    ownerInstitutionId: inst.agent1b!.id,
    createdAt: new Date(now - 80 * DAY),
  });
  const firstOf = async (batchId: number, n: number) => tx.select().from(activationCodes).where(eq(activationCodes.batchId, batchId)).orderBy(asc(activationCodes.id)).limit(n);
  const redeemedBy = [
    { who: inst.clinic3!, name: 'clinic3', daysAgo: 60, row: (await firstOf(yearly.id, 2))[0]! },
    { who: inst.agent2!, name: 'agent2', daysAgo: 20, row: (await firstOf(yearly.id, 2))[1]! },
    { who: inst.clinic3b!, name: 'clinic3b', daysAgo: 40, row: (await firstOf(south.id, 1))[0]! },
  ];
  for (const r of redeemedBy) {
    const { row } = r;
    const at = new Date(now - r.daysAgo * DAY);
    await tx.update(activationCodes).set({ status: 'used', usedAt: at, usedByInstitutionId: r.who.id }).where(eq(activationCodes.id, row.id));
    // The institution's current term already includes the year (the foundation seeds terms as they are now).
    const after = r.who.term ?? new Date(now + 200 * DAY);
    await tx.insert(activationRecords).values({
      codeId: row.id,
      batchId: row.batchId,
      codeMasked: maskCode(keys.open(row.sealed)!),
      scope: 'institution',
      institutionId: r.who.id,
      days: 365,
      termBefore: new Date(after.getTime() - 365 * DAY),
      termAfter: after,
      operatorKind: 'institution',
      operatorId: r.who.id,
      operatorName: r.name,
      createdAt: at,
    });
  }

  // 2. Device codes of the "100 inspections" package: three used on clinic3's devices, three voided.
  if (pack) {
    const batch = await createBatch(tx, keys, {
      scope: 'device',
      days: null,
      packageId: pack.id,
      count: 20,
      validUntil: null,
      remark: 'Launch promotion',
      createdBy,
      createdAt: new Date(now - 45 * DAY),
    });
    const rows = await tx.select().from(activationCodes).where(eq(activationCodes.batchId, batch.id)).orderBy(asc(activationCodes.id));
    for (const [i, device] of clinicDevices.entries()) {
      const row = rows[i]!;
      const at = new Date(now - (30 - i * 7) * DAY);
      await tx.update(activationCodes).set({ status: 'used', usedAt: at, usedByInstitutionId: inst.clinic3!.id, usedByDeviceId: device.id }).where(eq(activationCodes.id, row.id));
      const usesAfter = device.remainingUses ?? 100;
      await tx.insert(activationRecords).values({
        codeId: row.id,
        batchId: batch.id,
        codeMasked: maskCode(keys.open(row.sealed)!),
        scope: 'device',
        institutionId: inst.clinic3!.id,
        deviceId: device.id,
        packageId: pack.id,
        usesAdded: pack.uses,
        termBefore: device.expiresAt,
        termAfter: device.expiresAt,
        usesBefore: Math.max(0, usesAfter - (pack.uses ?? 0)),
        usesAfter,
        operatorKind: 'institution',
        operatorId: inst.clinic3!.id,
        operatorName: 'clinic3',
        createdAt: at,
      });
    }
    const voided = rows.slice(-3).map((r) => r.id);
    await tx
      .update(activationCodes)
      .set({ status: 'void', voidedAt: new Date(now - 10 * DAY) })
      .where(inArray(activationCodes.id, voided));
  }

  // 3. A trial batch of 30-day device codes that expired unused (two voided before that).
  const trial = await createBatch(tx, keys, {
    scope: 'device',
    days: 30,
    packageId: null,
    count: 8,
    validUntil: new Date(now - 5 * DAY),
    remark: 'Trade fair trial (expired)',
    createdBy,
    createdAt: new Date(now - 120 * DAY),
  });
  const trialRows = await tx.select({ id: activationCodes.id }).from(activationCodes).where(eq(activationCodes.batchId, trial.id)).orderBy(asc(activationCodes.id)).limit(2);
  await tx
    .update(activationCodes)
    .set({ status: 'void', voidedAt: new Date(now - 60 * DAY) })
    .where(
      inArray(
        activationCodes.id,
        trialRows.map((r) => r.id),
      ),
    );

  // 4. For overdue3: 30-day institution codes held by its agent (agent2), all unused.
  await createBatch(tx, keys, {
    scope: 'institution',
    days: 30,
    packageId: null,
    count: 3,
    validUntil: new Date(now + 60 * DAY),
    remark: 'Renewal for overdue3 (Binjiang Health Store)',
    createdBy,
    ownerInstitutionId: inst.agent2!.id,
    createdAt: new Date(now - 2 * DAY),
  });
}
