import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from '@app/contract/constants';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether a media query matches, followed live. */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (cb) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', cb);
      return () => mq.removeEventListener('change', cb);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below 992 px the layout is mobile (spec §9). */
export const useIsMobile = (): boolean => useMediaQuery(MOBILE_QUERY);

/** The reader's system asks for less motion (WCAG 2.3.3): antd's animations are then off (lib/theme.ts). */
export const usePrefersReducedMotion = (): boolean => useMediaQuery(REDUCED_MOTION_QUERY);
