import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paramsSaveBody } from '@app/contract';
import { ok } from '../../http/envelope';
import { route } from '../../lib/crud';
import * as service from './service';

/** System parameters (`/system/params-setting`): typed settings, read at every use. */
export default async function paramsRoutes(app: FastifyInstance) {
  route(app, 'GET', '/params/list', { page: 'ParamsSetting' }, z.object({}), () => service.listParams(app.db));
  route(app, 'POST', '/params/save', { button: 'params:edit' }, paramsSaveBody, (body) => service.saveParams(app.db, body));
  /** The login page's title and language, before anyone signs in. */
  app.get('/params/public', { config: { access: 'public' } }, async () => ok(await service.publicParams(app.db)));
}
