/** Every key the app keeps in localStorage starts with this (lib/storage.ts; the page's inline script, lib/early-start.ts). */
export const STORAGE_PREFIX = 'bioadmin:';
