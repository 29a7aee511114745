import { idList } from '../endpoint';
import { withMessage } from './common';

/*
 * Bulk actions over a list's selected rows (issue 36, "Lists people can shape"). Each row is checked on the
 * server by the very function of its single action, in a savepoint of its own: a refused row is rolled back
 * and named with its reason, the others are done. The answer says so (`mode: 'per_row'`). Rows are taken in
 * id order, so two bulk calls over the same rows lock them in the same order (no deadlock).
 */

/** At most this many rows in one bulk call. */
export const BULK_MAX = 200;

/** The selected rows' ids: a JSON array of 1-200 ids, deduplicated. */
export const bulkIds = idList(BULK_MAX).refine((v) => v.length > 0, withMessage('bulkNoRows'));

export interface BulkRow {
  id: number;
  /** How people know the row: a device's serial, a code as the list shows it, or `#<id>` for an id that names nothing. */
  name: string;
}
export interface BulkRefusal extends BulkRow {
  /** Why, in the caller's language (the single action's own message). */
  reason: string;
}
export interface BulkAnswer {
  /** `per_row`: each row done or refused on its own (the refused ones changed nothing). */
  mode: 'per_row';
  done: BulkRow[];
  refused: BulkRefusal[];
}
