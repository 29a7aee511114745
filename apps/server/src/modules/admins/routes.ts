import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adminAddBody, adminEditBody, adminListQuery, idBody } from '@app/contract';
import { route } from '../../lib/crud';
import { roleOptions } from '../roles/service';
import * as service from './service';

/**
 * Admin users (`/jurisdiction/admin_user`). Enabling/disabling and password resets go through
 * POST /member/modify_field (auth module), guarded by admin:status and admin:reset-password.
 */
export default async function adminRoutes(app: FastifyInstance) {
  route(app, 'GET', '/admin/list', { page: 'AdminUserManage' }, adminListQuery, (q) => service.listAdmins(app.db, q));
  route(app, 'GET', '/admin/detail', { page: 'AdminUserManage' }, idBody, ({ id }) => service.adminDetail(app.db, id));
  /** Roles for the user form's picker and the list filter. */
  route(app, 'GET', '/admin/role_options', { page: 'AdminUserManage' }, z.object({}), () => roleOptions(app.db));
  route(app, 'POST', '/admin/add', { button: 'admin:add' }, adminAddBody, (body, auth) => service.addAdmin(app.db, auth, body));
  route(app, 'POST', '/admin/edit', { button: 'admin:edit' }, adminEditBody, (body, auth) => service.editAdmin(app.db, auth, body));
  route(app, 'POST', '/admin/del', { button: 'admin:delete' }, idBody, ({ id }, auth) => service.deleteAdmin(app.db, auth, id));
}
