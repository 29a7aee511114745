/** The account's own security calls (contract: `sessionsApi` in `@app/contract/api/sessions`, `mfaApi` in `@app/contract/api/mfa`). */
import { useQueryClient } from '@tanstack/react-query';
import { useEndpoint, useEndpointMutation } from '../../components/list';
import { call, type Answer, type EndpointName, type Input } from '../../lib/api';

/** The caller's own sessions, the current one first. */
export const useSessions = () => useEndpoint('sessions.list');
/** Ends one of the caller's own sessions. */
export const useEndSession = (successMessage: string) => useEndpointMutation('sessions.end', { invalidate: ['sessions'], successMessage });
/** Ends every session of the caller but this one. */
export const useEndOtherSessions = () => useEndpointMutation('sessions.endOthers', { invalidate: ['sessions'], successMessage: false });

/** The second factor's state of the caller's account. */
export const useMfaStatus = () => useEndpoint('mfa.status');
/** Reloads that state (and the sessions: enabling lifts a restricted session). */
export function useRefreshMfa() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: ['mfa.status'] }), qc.invalidateQueries({ queryKey: ['sessions.list'] })]);
}
/** A second-factor write whose refusal the card shows in place (no toast). */
export const mfaCall = <N extends EndpointName & `mfa.${string}`>(name: N, input: Input<N>): Promise<Answer<N>> => call(name, input, { silent: true });
