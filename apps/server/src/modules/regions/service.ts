import type { RegionTable } from '@app/contract';
import type { Tx } from '../../db/client';
import type { Auth } from '../../http/access';
import { REGION_TABLE } from '../../lib/regions';

/** The whole region table (about 44 KB gzipped): the client loads it once, on the first form or name that needs it. */
export async function tree(_db: Tx, _auth: Auth): Promise<RegionTable> {
  return REGION_TABLE;
}
