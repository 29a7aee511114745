/** Activation codes: what every part shares (a code's making, its masked view, its status now, the audit id on fixed answers). */
import { randomBytes } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { CROCKFORD, CODE_LENGTH, maskCode, type CodeStatus } from '@app/contract';
import type { Config } from '../../config';
import { activationCodes } from '../../db/schema';
import { type CodeKeys, codeKeys } from './key';

/** Codes per INSERT statement (7 parameters each, far below PostgreSQL's 65 535). */
export const INSERT_CHUNK = 1000;

export const keysOf = (config: Pick<Config, 'dataDir' | 'codeKey'>): CodeKeys => codeKeys(config);

/** 80 bits from the CSPRNG as 16 Crockford symbols. */
export function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = CODE_LENGTH - 1; i >= 0; i--) out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

/** A sealed code as lists show it; a code sealed under another key shows as unreadable. */
export const maskedOf = (keys: CodeKeys, sealed: string) => {
  const code = keys.open(sealed);
  return code ? maskCode(code) : '????-****-****-????';
};

/** Where a code stands now (expired: unused past valid_until). */
export function statusOf(status: 'unused' | 'used' | 'void', validUntil: Date | null, now = Date.now()): CodeStatus {
  return status === 'unused' && validUntil && validUntil.getTime() <= now ? 'expired' : status;
}
const unusedNow = sql`(${activationCodes.status} = 'unused' and (${activationCodes.validUntil} is null or ${activationCodes.validUntil} > now()))`;
const expiredNow = sql`(${activationCodes.status} = 'unused' and ${activationCodes.validUntil} <= now())`;
export function statusCondition(status: CodeStatus): SQL {
  if (status === 'unused') return unusedNow;
  if (status === 'expired') return expiredNow;
  return eq(activationCodes.status, status);
}

/**
 * Answers carry the record's id for the audit trail (the registrar reads `id`) without showing it on the
 * wire: the fixed answers (`{ batch_no, codes }`, `{ term_expires_at }`) stay exactly what device-api.md says.
 */
export function withAuditId<T extends object>(answer: T, id: number): T {
  Object.defineProperty(answer, 'id', { value: id, enumerable: false });
  return answer;
}
