import { sql, type SQL } from 'drizzle-orm';
import { type Bind, inline } from '../../db/shaped';
import { inspections } from '../../db/schema';
import type { Auth } from '../../http/access';
import { institutionSubtreeIds } from '../institutions';

/** The inspections of an institution's subtree (by its path). */
export const scopeOfPath = (path: string, bind: Bind = inline): SQL => sql`${inspections.institutionId} in ${institutionSubtreeIds(path, bind)}`;

/** The caller's scope: its subtree (institutions), everything (the platform). */
export const scopeOf = (auth: Auth, bind: Bind = inline): SQL | undefined => (auth.kind === 'institution' ? scopeOfPath(auth.institution.path, bind) : undefined);
