/** The institutions module's calls (contract: `institutionsApi` in `@app/contract/api/institutions`). */
import type { QueryClient } from '@tanstack/react-query';
import type { InstitutionRow } from '@app/contract/api/institutions';
import { endpointQueryOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** The tree's top level, or with any filter the matching institutions (flat). */
export const useInstitutions = (query: ListInput) => useEndpointList('institutions.list', query);

/** The input of one row's direct children (what expanding it shows); cached per row. */
export const childrenInput = (id: number) => ({ ids: String(id), depth: 1 });
/** How long a row's children are fresh (writes invalidate them at once). */
export const CHILDREN_STALE_MS = 30_000;

/**
 * "Expand to level n": the descendants of the page's rows down to `depth` levels in one call, put in
 * the cache row by row as if each row had been expanded. Answers the rows that now have their children.
 */
export async function loadLevels(qc: QueryClient, rows: InstitutionRow[], depth: number): Promise<InstitutionRow[]> {
  if (!rows.length || depth < 1) return [];
  const answer = await qc.fetchQuery({ ...endpointQueryOptions('institutions.subtree', { ids: rows.map((r) => r.id).join(','), depth }), staleTime: 0 });
  const all = [...rows, ...answer.list];
  const level = new Map<number, number>(rows.map((r) => [r.id, 0]));
  for (const r of answer.list) level.set(r.id, (level.get(r.parent_id ?? -1) ?? 0) + 1);
  const expanded: InstitutionRow[] = [];
  for (const r of all) {
    // Rows above the deepest level have all their children in the answer (unless it was capped).
    if ((level.get(r.id) ?? 0) >= depth || (answer.capped && (level.get(r.id) ?? 0) >= depth - 1)) continue;
    const children = answer.list.filter((c) => c.parent_id === r.id);
    qc.setQueryData(endpointQueryOptions('institutions.subtree', childrenInput(r.id)).queryKey, { list: children, capped: false });
    if (children.length) expanded.push(r);
  }
  return expanded;
}

/** One institution with its subtree's counts. */
export const useInstitutionDetail = (id: number | null) => useEndpoint('institutions.detail', { id: id ?? 0 }, { enabled: id != null, staleTime: 0 });

/** -> { id, password } (the generated password, shown once). */
export const useAddInstitution = () => useEndpointMutation('institutions.add', { invalidate: ['institutions'], successMessage: false });
export const useEditInstitution = () => useEndpointMutation('institutions.edit', { invalidate: ['institutions'] });
export const useSetInstitutionStatus = (successMessage: string) => useEndpointMutation('institutions.setStatus', { invalidate: ['institutions'], successMessage });
/** -> { password } (generated: shown once; null when set). */
export const useResetInstitutionPassword = () => useEndpointMutation('institutions.resetPassword', { successMessage: false });
/** Grade 0: every session of the institution's account ends (the caller says the count). */
export const useEndInstitutionSessions = () => useEndpointMutation('sessions.endAccount', { successMessage: false });
export const useMoveInstitution = (successMessage: string) => useEndpointMutation('institutions.move', { invalidate: ['institutions'], successMessage });
