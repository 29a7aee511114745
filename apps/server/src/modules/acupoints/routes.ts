import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { acupointBody, acupointEditBody, acupointListQuery, masterIdQuery, saveActionsBody } from '@app/contract';
import { recordRoutes, route } from '../../lib/crud';
import * as service from './service';

/** Acupoints, and their treatment actions (the hidden AcupointAction page, button acupoint:action). */
export default async function acupointRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'acupoint', page: 'AcupointManage', buttons: { add: 'acupoint:add', edit: 'acupoint:edit', del: 'acupoint:delete' },
    schemas: { list: acupointListQuery, id: masterIdQuery, add: acupointBody, edit: acupointEditBody },
    service,
  });
  /** Every acupoint, short, for pickers in other pages (disease acupoints, schematic markers): any admin. */
  route(app, 'GET', '/acupoint/options', { grades: [0] }, z.object({}), () => service.options(app.db));
  route(app, 'GET', '/acupoint/actions', { page: 'AcupointAction' }, masterIdQuery, ({ id }, auth) => service.actions(app.db, auth, id));
  route(app, 'POST', '/acupoint/save_actions', { button: 'acupoint:action' }, saveActionsBody, (body, auth) => service.saveActions(app.db, auth, body));
}
