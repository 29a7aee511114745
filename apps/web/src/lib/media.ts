import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from '@app/contract/constants';

const QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;

function subscribe(cb: () => void) {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

/** Below 992 px the layout is mobile (spec §9). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}
