import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { devices, institutions } from '../../db/schema';
import { hashKey } from '../../lib/crypto';

export const order = 10;

/** The demo device of device-api.md: the device simulator's default (`npm run device`). Demo data only, never production. */
export const DEMO_DEVICE = { serial: 'BE-DEMO-0001', secret: 'demo-device-secret-0001' } as const;

/** `BE-DEMO-0001`, owned by clinic3, active, count-based with 500 uses; secret `demo-device-secret-0001`. */
export async function seed(tx: Tx) {
  const [clinic] = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.username, 'clinic3'));
  if (!clinic) return;
  const now = new Date();
  await tx.insert(devices).values({
    serial: DEMO_DEVICE.serial,
    model: 'BE-200',
    name: 'Demo device',
    institutionId: clinic.id,
    status: 'active',
    activatedAt: now,
    remainingUses: 500,
    secretHash: hashKey(DEMO_DEVICE.secret),
    remark: 'Device simulator default (npm run device)',
  });
}
