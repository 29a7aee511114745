import { mfaApi } from '@app/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes } from '../../http/endpoints';
import { callerRef } from '../../http/access';
import { reserveAttempt, throttledError } from '../../lib/throttle';
import * as service from './service';

/**
 * The second factor (`/mfa/*`) and the sign-in's second step (`/login/mfa`). Turning the factor off and
 * regenerating the recovery codes ask for a current code: their attempts are counted before the call runs,
 * in a short transaction of their own (lib/throttle.ts, as sign-in does), so a wrong code, whose own
 * transaction rolls back with its audit row, still counts; a right one clears the count in its
 * transaction. Throttled per account and per address, apart from sign-in failures (`/login/mfa` counts
 * with the passwords, in its handler).
 */
export default defineRoutes(mfaApi, service, {
  snapshots: { mfa: service.snapshot },
  preHandler: { disable: throttleCodes, recoveryCodes: throttleCodes },
});

async function throttleCodes(this: FastifyInstance, req: FastifyRequest) {
  if (!req.auth) return;
  const { username, address } = service.throttleKeys(callerRef(req.auth), req.ip);
  const reservation = await reserveAttempt(this.db, username, address);
  if (!reservation.ok) throw throttledError(reservation.retryAfterMs);
}
