import type { FastifyInstance } from 'fastify';
import { packageAddBody, packageEditBody, packageIdQuery, packageListQuery, packageSetStatusBody } from '@app/contract';
import { recordRoutes, route } from '../../lib/crud';
import * as service from './service';

/** Packages (`/package-manage`): list/detail/add/edit/del, plus on sale / off sale. */
export default async function packageRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'package', page: 'PackageManage', buttons: { add: 'package:add', edit: 'package:edit', del: 'package:delete' },
    schemas: { list: packageListQuery, id: packageIdQuery, add: packageAddBody, edit: packageEditBody },
    service,
  });
  route(app, 'POST', '/package/set_status', { button: 'package:edit' }, packageSetStatusBody, (body, auth) => service.setStatus(app.db, auth, body));
}
