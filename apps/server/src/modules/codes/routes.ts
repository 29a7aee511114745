import { codesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { reserveAttempt } from '../../lib/throttle';
import * as service from './service';

/** The two redemptions: their failed attempts are throttled per (institution, address) and per address. */
const REDEMPTIONS = new Set<string>([codesApi.redeemInstitution.name, codesApi.redeemDevice.name]);

/**
 * Activation codes (`/activation-code/index`), their redemption and the activation records.
 *
 * A redemption is counted before it runs, in a short transaction of its own (lib/throttle.ts, as sign-in
 * does), so that a refused code, whose own transaction rolls back with its audit row, still counts; a
 * success clears the count in its transaction. The check runs after the access check (this scope's hook
 * follows the root's) and before any transaction of the call is open.
 */
export default defineRoutes(codesApi, service, {
  snapshots: { code_batch: service.snapshot, activation_record: service.recordSnapshot },
  setup: async (app) => {
    app.addHook('preHandler', async (req) => {
      const endpoint = req.routeOptions.config?.endpoint;
      const auth = req.auth;
      if (!endpoint || !REDEMPTIONS.has(endpoint.name) || auth?.kind !== 'institution' || !auth.institution) return;
      const { username, address } = service.throttleKeys(auth.institution.id, req.ip);
      const reservation = await reserveAttempt(app.db, username, address);
      if (!reservation.ok) throw service.throttled(reservation.retryAfterMs);
    });
  },
});
