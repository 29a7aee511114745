import { authApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { snapshotInstitution } from '../institutions';
import { snapshotAdmin } from '../jurisdiction';
import * as service from './service';

/**
 * Sign-in and sign-out, the caller's own info, and modify_field: an admin account's password or status,
 * or an institution's own password (audited as the institution's record).
 */
export default defineRoutes(authApi, service, {
  snapshots: { admin: snapshotAdmin, institution: snapshotInstitution },
  recordTypes: { modifyField: (auth) => (auth?.kind === 'institution' ? 'institution' : 'admin') },
});
