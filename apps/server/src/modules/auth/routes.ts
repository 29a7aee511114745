import type { FastifyInstance } from 'fastify';
import { canUseButton, loginBody, modifyFieldBody } from '@app/contract';
import { ok } from '../../http/envelope';
import { requireAuth } from '../../http/access';
import { parseInput } from '../../http/validate';
import { forbidden } from '../../http/errors';
import { deleteSession } from './sessions';
import * as service from './service';

export default async function authRoutes(app: FastifyInstance) {
  app.post('/login/login', { config: { access: 'public' } }, async (req) =>
    ok(await service.login(app.db, 'admin', parseInput(loginBody, req.body, req.lang), req.ip)));

  app.post('/login/institution_login', { config: { access: 'public' } }, async (req) =>
    ok(await service.login(app.db, 'institution', parseInput(loginBody, req.body, req.lang), req.ip)));

  app.post('/login/logout', { config: { access: { session: true, restricted: true } } }, async (req) => {
    await deleteSession(app.db, requireAuth(req).sessionId);
    return ok(null);
  });

  app.get('/member/get_member', { config: { access: { session: true } } }, async (req) => {
    const auth = requireAuth(req);
    if (auth.kind !== 'admin') throw forbidden();
    return ok(await service.memberInfo(app.db, auth));
  });

  app.get('/institution/get_institution_info', { config: { access: { session: true, restricted: true } } }, async (req) => {
    const auth = requireAuth(req);
    if (auth.kind !== 'institution') throw forbidden();
    return ok(await service.institutionInfo(app.db, auth));
  });

  app.post('/member/modify_field', { config: { access: { session: true } } }, async (req) => {
    const auth = requireAuth(req);
    const input = parseInput(modifyFieldBody, req.body, req.lang);
    await service.modifyField(app.db, auth, input, (button) => canUseButton(button, auth.viewer));
    return ok(null);
  });
}
