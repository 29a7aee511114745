import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { institutions } from '../../db/schema';
import { type Bind, inline } from '../../db/shaped';
import { likeEscape } from '../../lib/list';

/** The rows of the subtree rooted at rootPath (the root included), by materialised path. */
export const inSubtree = (rootPath: string, bind: Bind = inline): SQL => sql`${institutions.path} like ${bind('subtree', `${likeEscape(rootPath)}%`)}`;

/** A subquery of the ids of an institution and all its descendants, by materialised path. */
export const institutionSubtreeIds = (rootPath: string, bind: Bind = inline) => sql`(select ${institutions.id} from ${institutions} where ${inSubtree(rootPath, bind)})`;

/** Whether an institution id lies in the subtree rooted at rootPath. */
export async function isInSubtree(db: Tx, rootPath: string, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: institutions.id })
    .from(institutions)
    .where(and(eq(institutions.id, id), inSubtree(rootPath)));
  return !!row;
}

export const pathOf = (parentPath: string | null, id: number) => `${parentPath ?? '/'}${id}/`;

/** How many levels deep a path is: "/1/" 1, "/1/5/9/" 3. */
export const levelsOf = (path: string) => path.split('/').length - 2;

/**
 * Creating institutions and moving subtrees exclude each other (a transaction-scoped advisory lock:
 * shared for creations, exclusive for a move): a child created while its parent's subtree moves would
 * otherwise keep the old path, and two crossing moves could each pass the "not under its own
 * descendant" check and make a cycle.
 */
const TREE_LOCK = 0x1_4517_7e3e;
export const lockTreeShared = (db: Tx) => db.execute(sql`select pg_advisory_xact_lock_shared(${TREE_LOCK}::bigint)`);
export const lockTreeExclusive = (db: Tx) => db.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK}::bigint)`);
