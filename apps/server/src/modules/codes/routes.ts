import { codesApi } from '@app/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes } from '../../http/endpoints';
import { reserveAttempt } from '../../lib/throttle';
import * as batches from './batches';
import * as codeList from './code-list';
import * as records from './records';
import * as redemption from './redemption';

/**
 * Activation codes (`/activation-code/index`), their redemption and the activation records, by sub-domain:
 * batches.ts (generation, the batch list), code-list.ts (the codes of batches: list, void, assignment,
 * export), redemption.ts (institutions redeem for their term or a device), records.ts (activation records),
 * shared.ts (a code's making, masking and status).
 *
 * A code is redeemed exactly once: one conditional UPDATE (status unused, not past valid_until, the caller
 * may use it) in the same transaction as the term change and the activation record; when it changes no row,
 * the row is read again to say why (wrong, used, void, expired, other scope, other owner).
 *
 * A redemption is counted before it runs, in a short transaction of its own (lib/throttle.ts, as sign-in
 * does), so that a refused code, whose own transaction rolls back with its audit row, still counts; a
 * success clears the count in its transaction. The two redemptions' failed attempts are throttled per
 * (institution, address) and per address: the check is their own preHandler, which runs after the access
 * check and before any transaction of the call is open.
 */
export default defineRoutes(
  codesApi,
  { ...batches, ...codeList, ...redemption, ...records },
  {
    snapshots: { code_batch: batches.snapshot, activation_record: records.recordSnapshot },
    preHandler: { redeemInstitution: throttleRedemption, redeemDevice: throttleRedemption },
  },
);

async function throttleRedemption(this: FastifyInstance, req: FastifyRequest) {
  const auth = req.auth;
  if (auth?.kind !== 'institution' || !auth.institution) return;
  const { username, address } = redemption.throttleKeys(auth.institution.id, req.ip);
  const reservation = await reserveAttempt(this.db, username, address);
  if (!reservation.ok) throw redemption.throttled(reservation.retryAfterMs);
}
