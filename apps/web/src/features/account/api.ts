/** The account's own security calls (contract: `sessionsApi` in `@app/contract/api/sessions`). */
import { useEndpoint, useEndpointMutation } from '../../components/list';

/** The caller's own sessions, the current one first. */
export const useSessions = () => useEndpoint('sessions.list');
/** Ends one of the caller's own sessions. */
export const useEndSession = (successMessage: string) => useEndpointMutation('sessions.end', { invalidate: ['sessions'], successMessage });
/** Ends every session of the caller but this one. */
export const useEndOtherSessions = () => useEndpointMutation('sessions.endOthers', { invalidate: ['sessions'], successMessage: false });
