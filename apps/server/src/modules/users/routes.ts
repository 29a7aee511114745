import type { FastifyInstance } from 'fastify';
import { userAddBody, userEditBody, userIdQuery, userListQuery } from '@app/contract';
import { recordRoutes } from '../../lib/crud';
import * as service from './service';

/**
 * Users, the people who are inspected (`/user/management`). Lists mask phone and ID numbers; the full
 * values come only from GET /user/detail, which needs the user:detail button, not just the page.
 */
export default async function userRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'user', page: 'UserManage', buttons: { add: 'user:add', edit: 'user:edit', del: 'user:delete' },
    detailAccess: { button: 'user:detail' },
    schemas: { list: userListQuery, id: userIdQuery, add: userAddBody, edit: userEditBody },
    service,
  });
}
