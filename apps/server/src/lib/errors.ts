import { Code, formatMessage, type Lang, type MessageKey, WHY_MESSAGE, type Why } from '@app/contract';

/** A business outcome other than success: becomes `{ code, datas }` with HTTP 200 (or `status`). */
export class AppError extends Error {
  constructor(
    public readonly code: number,
    public readonly messageKey: MessageKey | null,
    public readonly params: Record<string, string | number> = {},
    /** `retryAfter`: seconds, answered as a Retry-After header too (throttled sign-ins). `reason`: a machine-readable cause (the device API answers it as `datas.error.reason`, e.g. `duplicate`). */
    public readonly extra: { fields?: Record<string, string>; key?: string; text?: string; status?: number; retryAfter?: number; reason?: string } = {},
  ) {
    super(messageKey ?? extra.text ?? 'error');
  }

  text(lang: Lang): string {
    return this.extra.text ?? (this.messageKey ? formatMessage(this.messageKey, lang, this.params) : '');
  }
}

export const badRequest = (key: MessageKey, params?: Record<string, string | number>, fields?: Record<string, string>) => new AppError(Code.BAD_REQUEST, key, params, { fields });
/** A 400 whose text is already in the caller's language. */
export const badRequestText = (text: string, fields?: Record<string, string>) => new AppError(Code.BAD_REQUEST, null, {}, { text, fields });
export const expired = () => new AppError(Code.EXPIRED, 'loginExpired');
export const forbidden = () => new AppError(Code.BAD_REQUEST, 'forbidden');
export const notFound = () => new AppError(Code.BAD_REQUEST, 'notFound');
/** Step-up refused: answered as `datas.error: { message, reason: 'reauth_required' }` (trust-api.md). */
export const reauthRequired = () => new AppError(Code.BAD_REQUEST, 'reauthRequired', {}, { reason: 'reauth_required' });
export const overdue = (key: string) => new AppError(Code.OVERDUE, 'overdue', {}, { key });

/** A refusal of the shared rules (jurisdiction-rules) as the server answers it. */
export function refusal(why: Why, params?: Record<string, string | number>): AppError {
  return badRequest(WHY_MESSAGE[why], params);
}
