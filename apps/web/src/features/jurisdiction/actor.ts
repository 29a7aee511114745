import { useMemo } from 'react';
import { useSession } from '../../lib/session';
import { actorOf, type Actor } from '@app/contract/api/jurisdiction-rules';

/**
 * Who acts, from the session (user info keeps the admin's own role and the role viewed as): no call of
 * its own. `viewing` = a super-admin is viewing the console as another role.
 */
export function useActor(): { actor: Actor; viewing: boolean } {
  const userId = useSession((s) => s.userId);
  const role = useSession((s) => s.role);
  const viewingAs = useSession((s) => s.viewingAs);
  const actor = useMemo(() => actorOf({ role, viewing_as: viewingAs }, userId), [userId, role, viewingAs]);
  return { actor, viewing: !!viewingAs };
}
