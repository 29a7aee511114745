import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idBody, menuAddBody, menuEditBody } from '@app/contract';
import { route } from '../../lib/crud';
import * as service from './service';

/** Menu nodes of the permission tree (`/jurisdiction/menu`). */
export default async function menuRoutes(app: FastifyInstance) {
  route(app, 'GET', '/menu/tree', { page: 'MenuManage' }, z.object({}), () => service.menuTree(app.db));
  route(app, 'GET', '/menu/detail', { page: 'MenuManage' }, idBody, ({ id }) => service.menuDetail(app.db, id));
  route(app, 'POST', '/menu/add', { button: 'menu:add' }, menuAddBody, (body) => service.addMenu(app.db, body));
  route(app, 'POST', '/menu/edit', { button: 'menu:edit' }, menuEditBody, (body) => service.editMenu(app.db, body));
  route(app, 'POST', '/menu/del', { button: 'menu:delete' }, idBody, ({ id }) => service.deleteMenu(app.db, id));
}
