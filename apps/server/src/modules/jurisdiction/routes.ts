import { jurisdictionApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as admins from './admins';
import * as menus from './menus';
import * as roles from './roles';

/** Platform access control (`/jurisdiction`): menu nodes, roles and role switching, admin users. */
export default defineRoutes(
  jurisdictionApi,
  { ...menus, ...roles, ...admins },
  {
    snapshots: { menu: menus.snapshotMenu, role: roles.snapshotRole, admin: admins.snapshotAdmin },
  },
);
