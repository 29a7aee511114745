import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idBody, roleAddBody, roleEditBody, roleListQuery, viewAsBody } from '@app/contract';
import { requireAuth } from '../../http/access';
import { ok } from '../../http/envelope';
import { route } from '../../lib/crud';
import { parseForm } from '../../lib/form';
import * as service from './service';

/** Roles and their grants (`/jurisdiction/role`), and role switching ("view as", spec §4). */
export default async function roleRoutes(app: FastifyInstance) {
  route(app, 'GET', '/role/list', { page: 'RoleManage' }, roleListQuery, (q) => service.listRoles(app.db, q));
  route(app, 'GET', '/role/detail', { page: 'RoleManage' }, idBody, ({ id }) => service.roleDetail(app.db, id));
  /** The menu tree for the grant editor, with `grantable` per node. */
  route(app, 'GET', '/role/menu_tree', { page: 'RoleManage' }, z.object({}), (_, auth) => service.grantTree(app.db, auth));
  /** Every role, for pickers (view as). */
  route(app, 'GET', '/role/options', { page: 'RoleManage' }, z.object({}), () => service.roleOptions(app.db));
  route(app, 'POST', '/role/add', { button: 'role:add' }, roleAddBody, (body, auth) => service.addRole(app.db, auth, body));
  route(app, 'POST', '/role/edit', { button: 'role:edit' }, roleEditBody, (body, auth) => service.editRole(app.db, auth, body));
  route(app, 'POST', '/role/del', { button: 'role:delete' }, idBody, ({ id }, auth) => service.deleteRole(app.db, auth, id));

  // The client IP goes into the new session row, as at sign-in.
  app.post('/role/view_as', { config: { access: { button: 'role:view-as' } } }, async (req) => {
    const { role_id } = parseForm(viewAsBody, req.body, req.lang);
    return ok(await service.viewAs(app.db, requireAuth(req), req.ip, role_id));
  });
  /** Any session may leave "view as": the viewed role need not hold role:view-as. */
  app.post('/role/view_as_exit', { config: { access: { session: true } } }, async (req) =>
    ok(await service.viewAsExit(app.db, requireAuth(req), req.ip)));
}
