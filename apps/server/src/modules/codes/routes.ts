import { codesApi } from '@app/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes } from '../../http/endpoints';
import { reserveAttempt } from '../../lib/throttle';
import * as service from './service';

/**
 * Activation codes (`/activation-code/index`), their redemption and the activation records.
 *
 * A redemption is counted before it runs, in a short transaction of its own (lib/throttle.ts, as sign-in
 * does), so that a refused code, whose own transaction rolls back with its audit row, still counts; a
 * success clears the count in its transaction. The two redemptions' failed attempts are throttled per
 * (institution, address) and per address: the check is their own preHandler, which runs after the access
 * check and before any transaction of the call is open.
 */
export default defineRoutes(codesApi, service, {
  snapshots: { code_batch: service.snapshot, activation_record: service.recordSnapshot },
  preHandler: { redeemInstitution: throttleRedemption, redeemDevice: throttleRedemption },
});

async function throttleRedemption(this: FastifyInstance, req: FastifyRequest) {
  const auth = req.auth;
  if (auth?.kind !== 'institution' || !auth.institution) return;
  const { username, address } = service.throttleKeys(auth.institution.id, req.ip);
  const reservation = await reserveAttempt(this.db, username, address);
  if (!reservation.ok) throw service.throttled(reservation.retryAfterMs);
}
