import type { FastifyInstance } from 'fastify';
import { equipmentListQuery } from '@app/contract';
import { ok } from '../../http/envelope';
import { requireAuth } from '../../http/access';
import { parseInput } from '../../http/validate';
import { listDevices } from './service';

export default async function equipmentRoutes(app: FastifyInstance) {
  app.get('/equipment/list', { config: { access: { page: 'DeviceList' } } }, async (req) =>
    ok(await listDevices(app.db, requireAuth(req), parseInput(equipmentListQuery, req.query, req.lang))));
}
