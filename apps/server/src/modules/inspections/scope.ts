import { sql, type SQL } from 'drizzle-orm';
import { type Bind, inline } from '../../db/shaped';
import { inspections } from '../../db/schema';
import type { Auth } from '../../http/access';
import { institutionSubtreeIds } from '../institutions';

/** The caller's scope: its subtree (institutions), everything (the platform). */
export const scopeOf = (auth: Auth, bind: Bind = inline): SQL | undefined =>
  auth.kind === 'institution' ? sql`${inspections.institutionId} in ${institutionSubtreeIds(auth.institution.path, bind)}` : undefined;
