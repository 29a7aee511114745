/**
 * react-query helpers over the api client. Query keys start with the API path, so a mutation can
 * invalidate every cached page of a list by its path: `invalidate: ['/package/list']`.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { ListResult } from '@app/contract/envelope';
import { api, type Payload } from '../../lib/api';
import { withFeedback } from '../../lib/feedback';
import { t } from '../../lib/i18n';

// No AbortSignal is passed to the client on purpose: a call react-query gives up on still completes and
// its envelope is handled, because an overdue institution's answer (998) carries the new session key.

/** Options of a GET whose answer is cached under [path, params]. */
export function apiQueryOptions<T>(path: string, params?: Payload) {
  return queryOptions({
    queryKey: params ? [path, params] : [path],
    queryFn: () => api.get<T>(path, params),
  });
}

/** A list page: `{ list, total, capped }`; the previous page stays on screen while the next loads. */
export function listQueryOptions<Row>(path: string, query: Payload) {
  return queryOptions({
    queryKey: [path, query],
    queryFn: () => api.get<ListResult<Row>>(path, query),
    placeholderData: keepPreviousData,
  });
}

/** GET with caching. `useApiQuery<InstitutionOption[]>('/institution/options')`. */
export function useApiQuery<T>(path: string, params?: Payload, options?: Partial<UseQueryOptions<T, Error, T, readonly unknown[]>>) {
  return useQuery({ ...apiQueryOptions<T>(path, params), ...(options ?? {}) } as UseQueryOptions<T, Error, T, readonly unknown[]>);
}

export function useListQuery<Row>(path: string, query: Payload) {
  return useQuery(listQueryOptions<Row>(path, query));
}

export interface ApiMutationOptions<TBody, TResult> {
  /** API paths whose cached queries are refetched on success (prefix match on the query key). */
  invalidate?: string[];
  /** Success toast; default "Saved"; false (or a blank text) = none. */
  successMessage?: string | false;
  onSuccess?: (result: TResult, body: TBody) => void;
}

/** The success toast of a mutation: "Saved" by default, the caller's text, or none for false or a blank text. */
export function successToast(option: string | false | undefined): string | null {
  if (option === false) return null;
  if (option === undefined) return t('form.saved');
  return option.trim() ? option : null;
}

/** POST mutation. Errors were already shown by the client; ApiError.fields reach FormModal. */
export function useApiMutation<TBody extends Payload = Payload, TResult = unknown>(path: string, opts: ApiMutationOptions<TBody, TResult> = {}) {
  const qc = useQueryClient();
  return useMutation<TResult, Error, TBody>({
    mutationFn: (body) => api.post<TResult>(path, body),
    onSuccess: async (result, body) => {
      await Promise.all((opts.invalidate ?? []).map((p) => qc.invalidateQueries({ queryKey: [p] })));
      const text = successToast(opts.successMessage);
      if (text)
        withFeedback(({ message }) => {
          void message.success(text);
        });
      opts.onSuccess?.(result, body);
    },
  });
}
