import { sql } from 'drizzle-orm';
import { PARAM_KEYS, PARAM_META, type ParamItem, type ParamsSaveBody, type PublicParams } from '@app/contract';
import { systemParams } from '../../db/schema';
import type { Db, Tx } from '../../db/client';
import { fieldError } from '../../lib/form';
import { PARAM_DEFS, type ParamKey, type ParamValues } from './definitions';

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

/** GET /params/list: every parameter with its metadata and current value. */
export async function listParams(db: Tx): Promise<ParamItem[]> {
  const values = await readParams(db);
  return PARAM_KEYS.map((key) => ({ key, ...PARAM_META[key], value: values[key] }));
}

/** GET /params/public: what the login page shows before anyone signs in. */
export async function publicParams(db: Tx): Promise<PublicParams> {
  const values = await readParams(db);
  return { site_title: values.site_title, default_language: values.default_language };
}

/** Rules between parameters, checked on the values as they will be after the save. */
function checkTogether(v: ParamValues) {
  if (v.session_idle_minutes > v.session_absolute_hours * 60) throw fieldError('values.session_idle_minutes', 'paramIdleOverAbsolute');
}

/** POST /params/save: the given parameters (already validated by the contract), all or nothing, in one transaction. */
export async function saveParams(db: Db, body: ParamsSaveBody): Promise<null> {
  const changes = Object.entries(body.values).filter(([, v]) => v !== undefined) as [ParamKey, string | number][];
  await db.transaction(async (tx) => {
    // Serialises concurrent saves, so the rules between parameters hold for the result.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('system_params'))`);
    const merged = { ...(await readParams(tx)), ...Object.fromEntries(changes) } as ParamValues;
    checkTogether(merged);
    for (const [key, value] of changes) {
      await tx.insert(systemParams).values({ key, value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: systemParams.key, set: { value, updatedAt: new Date() } });
    }
  });
  return null;
}
