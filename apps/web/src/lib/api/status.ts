/** Spec §8: HTTP status -> message key (namespace common). Pure, so it is unit-tested. */
export interface StatusMessage {
  key: string;
  params?: Record<string, unknown>;
}

const KNOWN = new Set([400, 401, 403, 404, 405, 408, 500, 501, 502, 503, 504, 505]);

/** `null` = no response at all (network failure, timeout, aborted). */
export function httpStatusMessage(status: number | null | undefined): StatusMessage {
  if (status == null || status === 0) return { key: 'http.noResponse' };
  if (KNOWN.has(status)) return { key: `http.s${status}` };
  return { key: 'http.unknown', params: { status } };
}

/** How long (seconds) transport errors stay on screen (spec §8). */
export const HTTP_ERROR_SECONDS = 5;
