import type { z } from 'zod';
import { PARAM_KEYS, PARAM_META, PARAM_SCHEMAS, type ParamKey, type ParamValues } from '@app/contract';
import type { Tx } from '../db/client';
import { systemParams } from '../db/schema';

export type { ParamKey, ParamValues };

/**
 * Reading the system parameters, for every part of the server that applies one (sessions, passwords,
 * payouts...). Types, bounds, defaults and labels live in the contract (PARAM_META); writing them is
 * the params module's (POST /params/save).
 */
export const PARAM_DEFS = Object.fromEntries(PARAM_KEYS.map((k) => [k, { schema: PARAM_SCHEMAS[k], default: PARAM_META[k].default }])) as {
  [K in ParamKey]: { schema: z.ZodType<ParamValues[K]>; default: ParamValues[K] };
};

/**
 * All parameters, stored values over defaults (a stored value that no longer validates falls back).
 * Read from the table at every use, so a saved change takes effect at once.
 */
export async function readParams(db: Tx): Promise<ParamValues> {
  const rows = await db.select().from(systemParams);
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(PARAM_DEFS)) {
    const row = rows.find((r) => r.key === key);
    const parsed = row ? def.schema.safeParse(row.value) : null;
    out[key] = parsed?.success ? parsed.data : def.default;
  }
  return out as ParamValues;
}

export async function readParam<K extends ParamKey>(db: Tx, key: K): Promise<ParamValues[K]> {
  return (await readParams(db))[key];
}
