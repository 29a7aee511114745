/** Picker data of the master-data pages: every acupoint (disease and schematic pages) and the system tree (disease page). */
import { useEndpoint } from './list';

/** Every acupoint, short (acupoints.options); refetched when an acupoint is written (invalidate 'acupoints'). */
export const useAcupointOptions = () => useEndpoint('acupoints.options', undefined, { staleTime: 60_000 });
/** The body systems with their subsystems (systems.options); refetched when a system is written (invalidate 'systems'). */
export const useSystemOptions = () => useEndpoint('systems.options', undefined, { staleTime: 60_000 });
