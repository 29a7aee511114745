import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/errors';
import { onSessionReset } from './session-reset';

/** One cache for the app; cleared on logout and on a role switch (no leftovers from another account). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 5 * 60_000,
      refetchOnWindowFocus: false,
      // Business refusals, expired sessions and overdue terms do not get better by retrying.
      retry: (count, error) => !isApiError(error) && count < 1,
    },
    mutations: { retry: false },
  },
});

// No cached answer of the previous identity survives a login, logout or role switch (ui.md).
onSessionReset(() => queryClient.clear());
