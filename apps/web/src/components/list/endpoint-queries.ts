/**
 * react-query over endpoints: query keys are `[endpoint name, input]`, so a mutation invalidates by
 * endpoint (`'packages.list'`) or by module (`'packages'`: every cached call of the module).
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { ListResult } from '@app/contract/envelope';
import { call, type Answer, type EndpointName, type Input } from '../../lib/api';
import { withFeedback } from '../../lib/feedback';
import { t } from '../../lib/i18n';
import { takePrefetched } from '../../lib/prefetch';

// No AbortSignal is passed to the client on purpose: a call react-query gives up on still completes and
// its envelope is handled, because an overdue institution's answer (998) carries the new session key.

/** The success toast of a mutation: "Saved" by default, the caller's text, or none for false or a blank text. */
export function successToast(option: string | false | undefined): string | null {
  if (option === false) return null;
  if (option === undefined) return t('form.saved');
  return option.trim() ? option : null;
}

/** The cache key of a call: its endpoint name, then its input. */
export const queryKeyOf = (name: EndpointName, input?: unknown) => (input === undefined ? [name] : [name, input]);

/** Options of a GET whose answer is cached under [name, input]. */
export function endpointQueryOptions<N extends EndpointName>(name: N, input?: Input<N>) {
  return queryOptions({
    queryKey: queryKeyOf(name, input),
    queryFn: () => call(name, input),
  });
}

type QueryOpts<T> = Partial<UseQueryOptions<T, Error, T, readonly unknown[]>>;

/** A cached GET: `useEndpoint('systems.tree')`. */
export function useEndpoint<N extends EndpointName>(name: N, input?: Input<N>, options?: QueryOpts<Answer<N>>) {
  return useQuery({ ...endpointQueryOptions(name, input), ...(options ?? {}) } as UseQueryOptions<Answer<N>, Error, Answer<N>, readonly unknown[]>);
}

/** URL state of a list page: text and numbers as the address bar holds them; the server validates. */
export type ListInput = Record<string, string | number>;
type ListRow<N extends EndpointName> = Answer<N> extends ListResult<infer R> ? R : never;

/** A list page's options: the previous page stays on screen while the next loads. */
export function endpointListOptions<N extends EndpointName>(name: N, query: ListInput) {
  return queryOptions({
    queryKey: queryKeyOf(name, query),
    // A call the page's address started ahead (lib/prefetch.ts) is taken as it is; if it failed, the call
    // is sent again, and that one reports.
    queryFn: () => {
      const ahead = takePrefetched(name, query) as Promise<ListResult<ListRow<N>>> | undefined;
      const send = () => call(name, query as Input<N>) as Promise<ListResult<ListRow<N>>>;
      return ahead ? ahead.catch(send) : send();
    },
    placeholderData: keepPreviousData,
  });
}

export function useEndpointList<N extends EndpointName>(name: N, query: ListInput) {
  return useQuery(endpointListOptions(name, query));
}

export interface EndpointMutationOptions<N extends EndpointName> {
  /** Endpoints (`'packages.list'`) or whole modules (`'packages'`) whose cached answers are refetched on success. */
  invalidate?: (EndpointName | ModuleName)[];
  /** Success toast; default "Saved"; false (or a blank text) = none. */
  successMessage?: string | false;
  onSuccess?: (result: Answer<N>, input: Input<N>) => void;
}
export type ModuleName = EndpointName extends `${infer M}.${string}` ? M : never;

/** Whether a cached query belongs to one of the invalidated endpoints or modules. */
export const invalidates = (targets: readonly string[], key: readonly unknown[]) => typeof key[0] === 'string' && targets.some((t) => key[0] === t || (key[0] as string).startsWith(`${t}.`));

/** A write. Errors were already shown by the client; ApiError.fields reach FormModal. */
export function useEndpointMutation<N extends EndpointName>(name: N, opts: EndpointMutationOptions<N> = {}) {
  const qc = useQueryClient();
  return useMutation<Answer<N>, Error, Input<N>>({
    mutationFn: (input) => call(name, input),
    onSuccess: async (result, input) => {
      const targets = opts.invalidate ?? [];
      if (targets.length) await qc.invalidateQueries({ predicate: (q) => invalidates(targets, q.queryKey) });
      const text = successToast(opts.successMessage);
      if (text)
        withFeedback(({ message }) => {
          void message.success(text);
        });
      opts.onSuccess?.(result, input);
    },
  });
}
