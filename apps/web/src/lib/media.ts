import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from '@app/contract/constants';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;
/** Below 576 px (antd's `sm`) the screen is a phone's: lists show cards (components/list/CardList). */
export const PHONE_BREAKPOINT = 576;
const PHONE_QUERY = `(max-width: ${PHONE_BREAKPOINT - 0.02}px)`;
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

/** Below 576 px: a phone (antd's `xs`, the same width its Grid and Form use). */
export const useIsPhone = (): boolean => useMediaQuery(PHONE_QUERY);

/** The reader's system asks for less motion (WCAG 2.3.3): antd's animations are then off (lib/theme.ts). */
export const usePrefersReducedMotion = (): boolean => useMediaQuery(REDUCED_MOTION_QUERY);
