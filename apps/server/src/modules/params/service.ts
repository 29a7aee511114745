import { sql } from 'drizzle-orm';
import { PARAM_KEYS, PARAM_META, type ParamItem, type ParamsSaveBody, type PublicParams } from '@app/contract';
import { systemParams } from '../../db/schema';
import type { Tx } from '../../db/client';
import type { Auth } from '../../http/access';
import { fieldError } from '../../lib/form';
// Reading lives in lib/params (sessions, passwords and other modules apply parameters too); this module lists and saves them.
import { readParams, type ParamKey, type ParamValues } from '../../lib/params';

/** GET /params/list: every parameter with its metadata and current value. */
export async function list(db: Tx, _auth: Auth): Promise<ParamItem[]> {
  const values = await readParams(db);
  return PARAM_KEYS.map((key) => Object.assign({ key }, PARAM_META[key], { value: values[key] }));
}

/** GET /params/public: what the login page shows before anyone signs in. */
export async function publicValues(db: Tx, _auth: Auth | null): Promise<PublicParams> {
  const values = await readParams(db);
  return { site_title: values.site_title, default_language: values.default_language };
}

/** Serialises concurrent saves (until the write's transaction ends), so the rules between parameters hold for the result. */
const lockParams = (db: Tx) => db.execute(sql`select pg_advisory_xact_lock(hashtext('system_params'))`);

/** The audit trail's view of the parameters: the whole set (id is always null), read under the save lock. */
export async function snapshot(db: Tx, _id: number | null): Promise<ParamValues> {
  await lockParams(db);
  return readParams(db);
}

/** Rules between parameters, checked on the values as they will be after the save. */
function checkTogether(v: ParamValues) {
  if (v.session_idle_minutes > v.session_absolute_hours * 60) throw fieldError('values.session_idle_minutes', 'paramIdleOverAbsolute');
}

/** POST /params/save: the given parameters (already validated by the contract), all or nothing (the write's transaction). */
export async function save(db: Tx, _auth: Auth, body: ParamsSaveBody): Promise<null> {
  const changes = Object.entries(body.values).filter(([, v]) => v !== undefined) as [ParamKey, string | number][];
  await lockParams(db);
  const merged = { ...(await readParams(db)), ...Object.fromEntries(changes) } as ParamValues;
  checkTogether(merged);
  for (const [key, value] of changes) {
    await db
      .insert(systemParams)
      .values({ key, value, updatedAt: new Date() })
      .onConflictDoUpdate({ target: systemParams.key, set: { value, updatedAt: new Date() } });
  }
  return null;
}
