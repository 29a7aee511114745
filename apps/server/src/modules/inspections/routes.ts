import { inspectionsApi } from '@app/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes } from '../../http/endpoints';
import { reserveOpen, throttledError } from '../../lib/throttle';
import * as service from './service';
import * as listing from './list';
import * as shares from './shares';

/**
 * Inspections (`/inspection/management`), the report and result data, the report's PDF and links,
 * recompute and treatment sessions. The public link's two calls are throttled per address before their
 * handler runs (lib/throttle.ts reserveOpen: every open counts, as a bad one until its link opened).
 */
export default defineRoutes(inspectionsApi, Object.assign({}, listing, service, shares), {
  snapshots: { inspection: service.snapshot, treatment_session: service.sessionSnapshot, inspection_share: shares.shareSnapshot },
  preHandler: { sharedReport: throttleOpen, sharedPdf: throttleOpen },
});

async function throttleOpen(this: FastifyInstance, req: FastifyRequest) {
  const reservation = await reserveOpen(this.db, shares.openAddress(req.ip));
  if (!reservation.ok) throw throttledError(reservation.retryAfterMs);
  shares.reservedOpens.set(req, reservation.id);
}
