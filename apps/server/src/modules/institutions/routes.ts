import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope';
import { requireAuth } from '../../http/access';
import { institutionOptions } from './service';

export default async function institutionRoutes(app: FastifyInstance) {
  /** Institutions the caller may pick in filters and forms: its own subtree (all for admins). */
  app.get('/institution/options', { config: { access: { session: true } } }, async (req) =>
    ok(await institutionOptions(app.db, requireAuth(req))));
}
