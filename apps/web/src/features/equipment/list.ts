/** The device list's URL state (its filters), shared by the page and its prefetch (pages.ts). */
export const DEVICE_LIST_PARAMS = {
  filters: ['keyword', 'status', 'institution_id', 'expires_from', 'expires_to', 'expiring', 'online', 'reported_version'] as const,
};
