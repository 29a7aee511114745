import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { masterIdQuery, systemBody, systemEditBody, systemListQuery } from '@app/contract';
import { recordRoutes, route } from '../../lib/crud';
import * as service from './service';

/** System categories: body systems and their subsystems/organs (one table, two levels). */
export default async function systemRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'system', page: 'SystemManage', buttons: { add: 'system:add', edit: 'system:edit', del: 'system:delete' },
    schemas: { list: systemListQuery, id: masterIdQuery, add: systemBody, edit: systemEditBody },
    service,
  });
  route(app, 'GET', '/system/tree', { page: 'SystemManage' }, z.object({}), () => service.tree(app.db));
  /** The same tree for pickers in other pages (related systems of a disease): any admin. */
  route(app, 'GET', '/system/options', { grades: [0] }, z.object({}), () => service.tree(app.db));
}
