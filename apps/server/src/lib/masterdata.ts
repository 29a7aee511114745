import { asc, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Code, formatMessage, LANGS, pickText, type L10n, type Lang, type MessageKey } from '@app/contract';
import { AppError } from './errors';
import type { Tx } from '../db/client';
import { fieldError } from './form';
import { likeEscape, sortBy } from './list';

/*
 * Helpers of the master-data modules (diseases, systems, acupoints, schematics), on top of lib/crud.ts
 * (route, pagedList) and lib/form.ts (fieldError): keyword search over multilingual (L10n jsonb) names,
 * the editor's order, existence of picked id lists, and reference-protected deletes whose message names
 * what still holds the record, in the caller's language. See docs/development.md ("CRUD helpers").
 */

/** A keyword filter: substring, case-insensitive, over every language of the L10n jsonb columns and over plain text columns. */
export function keywordMatch(keyword: string | undefined, cols: { l10n?: AnyColumn[]; plain?: AnyColumn[] }): SQL | undefined {
  if (!keyword) return undefined;
  const pattern = `%${likeEscape(keyword)}%`;
  return or(...(cols.l10n ?? []).flatMap((col) => LANGS.map((lang) => sql`(${col} ->> ${lang}::text) ilike ${pattern}`)), ...(cols.plain ?? []).map((col) => sql`${col} ilike ${pattern}`));
}

/**
 * ORDER BY for an editor-ordered list: the requested whitelisted column (lib/list sortBy), or by
 * default the rows' own `sort` ascending; ties by id ascending.
 */
export function editorOrder<K extends string>(columns: Record<K, AnyColumn | SQL>, q: { sort?: K; order?: 'ascend' | 'descend' }, sortColumn: AnyColumn, id: AnyColumn): SQL[] {
  return q.sort ? sortBy(columns, q, q.sort, id) : [asc(sortColumn), asc(id)];
}

/** `from <table> where <conds>`, the fragment pagedList counts. */
export const fromWhere = (table: PgTable, where: SQL | undefined) => sql`from ${table} where ${where ?? sql`true`}`;

/** Picked ids (related systems, acupoints, markers) must all exist: otherwise a field error naming the missing ones. */
export async function assertIdsExist(db: Tx, idColumn: PgColumn, ids: readonly number[], field: string): Promise<void> {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const found = new Set((await db.select({ id: idColumn }).from(idColumn.table).where(inArray(idColumn, unique))).map((r) => Number(r.id)));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw fieldError(field, 'refMissing', { field, ids: missing.join(', ') });
}

/** What still references a record: a holder noun phrase (message with {count} and {names}) and the holders' names. */
export interface Holder {
  /** Message key of the noun phrase; absent: the names alone. */
  key?: MessageKey;
  count: number;
  names: (L10n | string)[];
}

/** A few names in one language: "A, B, C, …". */
export function someNames(names: (L10n | string)[], lang: Lang, max = 3): string {
  const shown = names.slice(0, max).map((n) => (typeof n === 'string' ? n : pickText(n, lang)));
  return shown.join(', ') + (names.length > max ? ', …' : '');
}

/** "Cannot delete: still used by 2 diseases (Asthma, Common cold)": rendered in the caller's language when answered. */
export class InUseError extends AppError {
  constructor(private readonly holders: Holder[]) {
    super(Code.BAD_REQUEST, 'inUse');
  }

  override text(lang: Lang): string {
    const holder = this.holders.map((h) => (h.key ? formatMessage(h.key, lang, { count: h.count, names: someNames(h.names, lang) }) : someNames(h.names, lang))).join('; ');
    return formatMessage('inUse', lang, { holder });
  }
}

/** Throws InUseError when any holder has rows. */
export function refuseIfHeld(holders: Holder[]): void {
  const held = holders.filter((h) => h.count > 0);
  if (held.length) throw new InUseError(held);
}

/** 23503 (foreign_key_violation) or 23001 (restrict_violation, ON DELETE RESTRICT): a foreign key refuses the write. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return [e?.code, e?.cause?.code].some((c) => c === '23503' || c === '23001');
}

/**
 * A reference-protected delete: refuses while `holders()` finds references, then runs `remove(tx)` in a
 * savepoint of `db`. If a foreign key still refuses (a reference added meanwhile, or one this module
 * does not know about), the savepoint is rolled back and the holders are looked up again; the answer is
 * the "Cannot delete" message, never a 500.
 */
export async function guardedDelete(db: Tx, holders: () => Promise<Holder[]>, remove: (tx: Tx) => Promise<unknown>): Promise<void> {
  refuseIfHeld(await holders());
  try {
    await db.transaction(remove);
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    refuseIfHeld(await holders());
    const e = err as { table?: string; cause?: { table?: string } };
    throw new InUseError([{ count: 1, names: [e.cause?.table ?? e.table ?? '?'] }]);
  }
}

export { iso } from './time';
