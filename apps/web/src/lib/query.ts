import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/errors';
import { onSessionReset } from './session-reset';

/**
 * One cache for the app; cleared on logout and on a role switch (no leftovers from another account).
 * networkMode 'always': calls go out whatever the browser says of its connection. react-query's default
 * holds every query and mutation while `navigator.onLine` is false, which the browser derives from its
 * network interfaces, not from whether this server answers (a clinic's closed network, a VPN switching):
 * a Save would spin with no message for as long as that lasts. The API client has its own timeout and
 * says when the server cannot be reached (docs/decisions.md).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      networkMode: 'always',
      staleTime: 30_000,
      gcTime: 5 * 60_000,
      refetchOnWindowFocus: false,
      // Business refusals, expired sessions and overdue terms do not get better by retrying.
      retry: (count, error) => !isApiError(error) && count < 1,
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// No cached answer of the previous identity survives a login, logout or role switch (ui.md).
onSessionReset(() => queryClient.clear());
