import type { FastifyInstance } from 'fastify';
import { masterIdQuery, saveMarkersBody, schematicBody, schematicEditBody, schematicListQuery } from '@app/contract';
import { recordRoutes, route } from '../../lib/crud';
import * as service from './service';

/** Schematic diagrams: an uploaded image and acupoint markers at fractional (x, y) positions. */
export default async function schematicRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'schematic', page: 'SchematicManage', buttons: { add: 'schematic:add', edit: 'schematic:edit', del: 'schematic:delete' },
    schemas: { list: schematicListQuery, id: masterIdQuery, add: schematicBody, edit: schematicEditBody },
    service,
  });
  route(app, 'POST', '/schematic/save_markers', { button: 'schematic:edit' }, saveMarkersBody, (body, auth) => service.saveMarkers(app.db, auth, body));
}
