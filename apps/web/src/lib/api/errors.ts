/** Why a call failed. `business` = code 400 (a message for the user, maybe per-field messages). */
export type ApiErrorKind = 'business' | 'overdue' | 'expired' | 'unknownCode' | 'http' | 'network' | 'timeout';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Envelope code (400, 998, 999, other) or HTTP status for transport failures. */
  readonly code: number | null;
  /** Per-field messages of a 400 answer (datas.fields), keyed by field name. */
  readonly fields: Record<string, string>;
  /** True when the user has already been told (message, dialog or notice). */
  readonly notified: boolean;
  /** A 400's machine-readable cause (`datas.error.reason`), when the server gave one. */
  readonly reason?: string;

  constructor(kind: ApiErrorKind, message: string, opts: { code?: number | null; fields?: Record<string, string>; notified?: boolean; reason?: string } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = opts.code ?? null;
    this.fields = opts.fields ?? {};
    this.notified = opts.notified ?? false;
    if (opts.reason) this.reason = opts.reason;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
