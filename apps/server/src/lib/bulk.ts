import { type BulkAnswer, type BulkRefusal, type BulkRow, type Endpoint, formatMessage, type Lang } from '@app/contract';
import type { Tx } from '../db/client';
import { type AuditActor, type AuditSnapshot, recordAudit } from './audit';
import { AppError } from './errors';

/** Each done row's own audit row, as its single action would write it (before and after, by id). */
export interface BulkAudit {
  actor: AuditActor;
  endpoint: Pick<Endpoint, 'name' | 'path'>;
  ip: string;
  userAgent: string;
  recordType: string;
  snapshot: AuditSnapshot;
  /** The single action's input for the row (kept in its audit row). */
  input: (id: number) => unknown;
}

/**
 * A bulk action, per row (contract api/bulk.ts): rows in id order, each by `run` (the single action's own
 * function, so the rule is written once) in a savepoint of its own. A row it refuses (an AppError) is
 * rolled back and reported with the refusal's message in the caller's language; an id `names` does not
 * hold (it names nothing the caller may touch) is refused as not found. Any other error fails the call.
 */
export async function eachRow(db: Tx, lang: Lang, ids: readonly number[], names: ReadonlyMap<number, string>, run: (tx: Tx, id: number) => Promise<unknown>, audit?: BulkAudit): Promise<BulkAnswer> {
  const done: BulkRow[] = [];
  const refused: BulkRefusal[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const name = names.get(id);
    if (name === undefined) {
      refused.push({ id, name: `#${id}`, reason: formatMessage('notFound', lang) });
      continue;
    }
    try {
      await db.transaction(async (sp) => {
        const before = audit ? await audit.snapshot(sp, id) : null;
        await run(sp, id);
        if (audit) {
          const after = await audit.snapshot(sp, id);
          await recordAudit(sp, {
            auth: audit.actor,
            endpoint: audit.endpoint,
            recordType: audit.recordType,
            recordId: id,
            before,
            after,
            input: audit.input(id),
            ip: audit.ip,
            userAgent: audit.userAgent,
          });
        }
      });
      done.push({ id, name });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refused.push({ id, name, reason: err.text(lang) });
    }
  }
  return { mode: 'per_row', done, refused };
}
