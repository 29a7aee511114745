import { asc, sql } from 'drizzle-orm';
import type { InstitutionOption } from '@app/contract';
import type { Tx } from '../../db/client';
import { institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { likeEscape } from '../../lib/list';

export async function institutionOptions(db: Tx, auth: Auth): Promise<InstitutionOption[]> {
  const scope = auth.kind === 'institution' ? sql`${institutions.path} like ${`${likeEscape(auth.institution!.path)}%`}` : undefined;
  const rows = await db.select({ id: institutions.id, name: institutions.name, grade: institutions.grade, parent_id: institutions.parentId })
    .from(institutions).where(scope).orderBy(asc(institutions.path));
  return rows.map((r) => ({ ...r, grade: r.grade as 1 | 2 | 3 }));
}
