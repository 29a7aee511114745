import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { institutions } from '../../db/schema';
import { likeEscape } from '../../lib/list';

/** A subquery of the ids of an institution and all its descendants, by materialised path. */
export const institutionSubtreeIds = (rootPath: string) => sql`(select ${institutions.id} from ${institutions} where ${institutions.path} like ${`${likeEscape(rootPath)}%`})`;

/** Whether an institution id lies in the subtree rooted at rootPath. */
export async function isInSubtree(db: Tx, rootPath: string, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: institutions.id })
    .from(institutions)
    .where(and(eq(institutions.id, id), sql`${institutions.path} like ${`${likeEscape(rootPath)}%`}`));
  return !!row;
}

export const pathOf = (parentPath: string | null, id: number) => `${parentPath ?? '/'}${id}/`;
