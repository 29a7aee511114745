import { asc, eq, sql } from 'drizzle-orm';
import type { InstitutionOption } from '@app/contract';
import type { Tx } from '../../db/client';
import { institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { likeEscape } from '../../lib/list';

/** Institutions the caller may pick in filters and forms: its own subtree (every institution for admins). */
export async function options(db: Tx, auth: Auth): Promise<InstitutionOption[]> {
  const scope = auth.kind === 'institution' ? sql`${institutions.path} like ${`${likeEscape(auth.institution!.path)}%`}` : undefined;
  const rows = await db
    .select({ id: institutions.id, name: institutions.name, grade: institutions.grade, parent_id: institutions.parentId })
    .from(institutions)
    .where(scope)
    .orderBy(asc(institutions.path));
  return rows.map((r) => ({ ...r, grade: r.grade as 1 | 2 | 3 }));
}

/** The audit trail's view of an institution: its stored row without the password hash. */
export async function snapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [r] = await db.select().from(institutions).where(eq(institutions.id, id));
  if (!r) return null;
  const { passwordHash: _hash, ...rest } = r;
  return {
    id: rest.id,
    name: rest.name,
    grade: rest.grade,
    parent_id: rest.parentId,
    username: rest.username,
    contact_name: rest.contactName,
    phone: rest.phone,
    province: rest.province,
    city: rest.city,
    district: rest.district,
    address: rest.address,
    status: rest.status,
    term_expires_at: rest.termExpiresAt?.toISOString() ?? null,
    balance: rest.balance,
    created_at: rest.createdAt.toISOString(),
  };
}
