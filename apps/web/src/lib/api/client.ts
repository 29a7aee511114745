/**
 * The API client (spec §7, §8): fetch under API_BASE with a 10 s timeout, the session payload fields
 * on every call, the `{ code, datas }` envelope and the error catalogue.
 */
import { API_BASE, Code, institutionIdField, REQUEST_TIMEOUT_MS } from '@app/contract/constants';
import { useSession, sessionActions } from '../session';
import { withFeedback } from '../feedback';
import { currentLang, t } from '../i18n';
import { ApiError } from './errors';
import { HTTP_ERROR_SECONDS, httpStatusMessage } from './status';
import { showExpiredDialog } from './expired-dialog';
import { recordEarly, takeEarly } from '../early';
import { askReauth } from '../reauth';

/** The cause of a step-up refusal (trust-api.md). */
export const REAUTH_REQUIRED = 'reauth_required';

export type Payload = Record<string, unknown>;

export interface RequestOptions {
  /** Do not show the 400 message (the caller shows it, e.g. inline on the login page). */
  silent?: boolean;
  /** On 999 throw without the login-expired dialog (the guard sends the user to /login itself). */
  quietExpired?: boolean;
  /**
   * Aborts the network call. Avoid it for calls that may answer 998 (every business call of an
   * institution): an aborted 998 loses the new session key and later calls fail with 999.
   */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A `reauth_required` refusal is not turned into the password prompt (the prompt's own call, a retry). */
  noStepUp?: boolean;
}

/** The payload every request carries (spec §7): key if missing, institution id for non-admins, api_path. */
export function sessionPayload(path: string, payload: Payload = {}): Payload {
  const s = useSession.getState();
  const out: Payload = { ...payload };
  if (out.key == null && s.token) out.key = s.token;
  if (!s.isAdmin && s.userId != null && s.grade) out[institutionIdField(s.grade)] = s.userId;
  out.api_path = path;
  return out;
}

function toQuery(payload: Payload): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(payload)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

const showError = (text: string, seconds?: number) =>
  withFeedback(({ message }) => {
    void message.error({ content: text, duration: seconds, key: text });
  });

function transportFailure(status: number | null, kind: 'http' | 'network' | 'timeout'): ApiError {
  const m = httpStatusMessage(status);
  const text = t(m.key, m.params);
  showError(text, HTTP_ERROR_SECONDS);
  return new ApiError(kind, text, { code: status, notified: true });
}

interface Envelope {
  code: number;
  datas: unknown;
}

/** What an error answer may carry in `datas`; a malformed answer may carry anything, so every field is checked before use. */
interface ErrorDatas {
  error?: unknown;
  fields?: unknown;
}
const errorDatas = (datas: unknown): ErrorDatas => (datas && typeof datas === 'object' ? (datas as ErrorDatas) : {});
/** The 998 answer's `error`: `{ message, data: { key } }` (the rotated key). */
interface OverdueError {
  message?: unknown;
  data?: { key?: unknown } | null;
}
const overdueError = (error: unknown): OverdueError => (error && typeof error === 'object' ? (error as OverdueError) : {});

/**
 * Calls in flight per session key. A 998 answer rotates the key, and a call sent with the old key at
 * the same time can come back 999 before the 998 is handled: a 999 therefore waits for the other calls
 * sent with its key to be handled before deciding that the login really expired.
 */
const inflight = new Map<unknown, Set<Promise<void>>>();

export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload: Payload = {}, opts: RequestOptions = {}): Promise<T> {
  const data = sessionPayload(path, payload);
  try {
    return await tracked<T>(data.key, (self, markHandled) => send<T>(method, path, data, data.key, opts, self, markHandled));
  } catch (err) {
    // Step-up: the password in place (lib/reauth.ts), then the same call once more; cancelled, the refusal stands.
    if (err instanceof ApiError && err.reason === REAUTH_REQUIRED && !opts.noStepUp && (await askReauth())) {
      return request<T>(method, path, payload, { ...opts, noStepUp: true });
    }
    throw err;
  }
}

/** Runs one call registered under the key it is sent with (see `inflight`). */
async function tracked<T>(sentKey: unknown, run: (self: Promise<void>, markHandled: () => void) => Promise<T>): Promise<T> {
  let markHandled!: () => void;
  const handled = new Promise<void>((resolve) => {
    markHandled = resolve;
  });
  const peers = inflight.get(sentKey) ?? new Set<Promise<void>>();
  peers.add(handled);
  inflight.set(sentKey, peers);
  try {
    return await run(handled, markHandled);
  } finally {
    markHandled();
    peers.delete(handled);
    if (!peers.size && inflight.get(sentKey) === peers) inflight.delete(sentKey);
  }
}

const apiUrl = (path: string) => `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;

async function send<T>(method: string, path: string, data: Payload, sentKey: unknown, opts: RequestOptions, self: Promise<void>, markHandled: () => void): Promise<T> {
  const url = apiUrl(path);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);

  const isGet = method === 'GET';
  const target = isGet ? url + toQuery(data) : url;
  const lang = currentLang();
  const ask = () =>
    fetch(target, {
      method,
      headers: { 'Accept-Language': lang, Accept: 'application/json', ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      body: isGet ? undefined : JSON.stringify(data),
      signal: controller.signal,
      credentials: 'same-origin',
    });
  // The page's inline script may have sent this very call already (lib/early.ts); if that one failed on
  // the way, it is asked again.
  const early = isGet ? takeEarly(target, lang) : undefined;
  let res: Response;
  try {
    res = await (early ? untilAborted(early.catch(ask), controller.signal) : ask());
  } catch (err) {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    // Cancelled by the caller (react-query when a query is dropped): quiet.
    if (opts.signal?.aborted && !timedOut) throw err;
    throw transportFailure(null, timedOut ? 'timeout' : 'network');
  }
  clearTimeout(timer);
  opts.signal?.removeEventListener('abort', onAbort);

  let body: Envelope | null = null;
  try {
    body = (await res.json()) as Envelope;
  } catch {
    body = null;
  }
  if (isGet && res.ok && body?.code === Code.OK) recordEarly(target, lang);
  return answer<T>(res.ok ? null : res.status, body, sentKey, opts, self, markHandled);
}

/** The promise, or an AbortError once the signal aborts (an early call cannot be aborted itself). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException('The call was aborted', 'AbortError'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The call was aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The envelope of an answer that arrived (`httpError` = the HTTP status when it was not 2xx). */
async function answer<T>(httpError: number | null, body: Envelope | null, sentKey: unknown, opts: RequestOptions, self: Promise<void>, markHandled: () => void): Promise<T> {
  if (httpError !== null) {
    throw transportFailure(httpError, 'http');
  }
  if (!body || typeof body.code !== 'number') {
    showError(t('api.unknownCode'));
    throw new ApiError('unknownCode', t('api.unknownCode'), { notified: true });
  }
  if (body.code === Code.EXPIRED) {
    // Let the other calls sent with this key be handled first (one of them may be a 998 rotating it).
    markHandled();
    const others = [...(inflight.get(sentKey) ?? [])].filter((p) => p !== self);
    if (others.length) await Promise.race([Promise.allSettled(others), new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS))]);
  }
  return handleEnvelope<T>(body, sentKey, opts);
}

function handleEnvelope<T>(body: Envelope, sentKey: unknown, opts: RequestOptions): T {
  switch (body.code) {
    case Code.OK:
      return body.datas as T;
    case Code.BAD_REQUEST: {
      const datas = errorDatas(body.datas);
      // `error` is the message, or `{ message, reason }` when the refusal has a machine-readable cause:
      // `reauth_required` (step-up: request() asks for the password and repeats the call) or
      // `mfa_setup_required` (an admin who must set up a second factor first; the guard shows the Security page).
      const error = datas.error && typeof datas.error === 'object' ? (datas.error as { message?: unknown; reason?: unknown }) : null;
      const message = error ? error.message : datas.error;
      const reason = typeof error?.reason === 'string' ? error.reason : null;
      const text = typeof message === 'string' ? message : t('http.s400');
      if (reason === 'mfa_setup_required') useSession.setState({ mfaSetupRequired: true });
      // A step-up refusal becomes the password prompt (request()), not a toast, unless the caller handles it.
      const quiet = opts.silent || (reason === REAUTH_REQUIRED && !opts.noStepUp);
      if (!quiet) showError(text);
      const fields = datas.fields && typeof datas.fields === 'object' ? (datas.fields as Record<string, string>) : {};
      throw new ApiError('business', text, { code: 400, fields, notified: !quiet, reason });
    }
    case Code.OVERDUE: {
      const error = overdueError(errorDatas(body.datas).error);
      const key = error.data?.key;
      sessionActions.setOverdue(typeof key === 'string' ? key : undefined);
      const text = typeof error.message === 'string' ? error.message : t('api.overdueTitle');
      // The layout shows the persistent overdue notice while showOverdue is set.
      throw new ApiError('overdue', text, { code: 998, notified: true });
    }
    case Code.EXPIRED: {
      const error = errorDatas(body.datas).error;
      const text = typeof error === 'string' ? error : t('api.expiredTitle');
      // A 998 answer rotates the key: a call sent with the old key can come back 999 while the
      // session itself is fine. Only a failure of the current key means the login has expired.
      const current = useSession.getState().token;
      if (current && sentKey && current !== sentKey) throw new ApiError('expired', text, { code: 999, notified: true });
      if (opts.quietExpired) throw new ApiError('expired', text, { code: 999, notified: false });
      showExpiredDialog(text);
      throw new ApiError('expired', text, { code: 999, notified: true });
    }
    default:
      showError(t('api.unknownCode'));
      throw new ApiError('unknownCode', t('api.unknownCode'), { code: body.code, notified: true });
  }
}

/** How long an upload may take (a 5 MB picture on a slow line). */
export const UPLOAD_TIMEOUT_MS = 120_000;

export interface UploadOptions extends RequestOptions {
  /** The multipart field of the file; `file` by default. */
  field?: string;
}

/**
 * Multipart upload (POST, the file in field `file`) with progress, behind `uploadTo('uploads.uploadImg',
 * file, setPercent)` (endpoints.ts). The key travels as an `Authorization: Bearer` header (never as a form
 * field), the other session fields (api_path, institution id) in the query string; the answer goes through
 * the same envelope handling as every call (400 toast and ApiError, 998, the 999 dialog, transport errors).
 * `onProgress` gets 0-99 while sending and 100 once the server has accepted the file.
 */
export function upload<T>(path: string, file: Blob, onProgress?: (percent: number) => void, opts: UploadOptions = {}): Promise<T> {
  const { key, ...rest } = sessionPayload(path);
  return tracked<T>(
    key,
    (self, markHandled) =>
      new Promise<T>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', apiUrl(path) + toQuery(rest));
        if (typeof key === 'string' && key) xhr.setRequestHeader('Authorization', `Bearer ${key}`);
        xhr.setRequestHeader('Accept-Language', currentLang());
        xhr.setRequestHeader('Accept', 'application/json');
        xhr.timeout = opts.timeoutMs ?? UPLOAD_TIMEOUT_MS;
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(99, Math.round((e.loaded / e.total) * 100)));
        };
        xhr.onload = () => {
          let body: Envelope | null = null;
          try {
            body = JSON.parse(xhr.responseText) as Envelope;
          } catch {
            body = null;
          }
          const ok = xhr.status >= 200 && xhr.status < 300;
          answer<T>(ok ? null : xhr.status, body, key, opts, self, markHandled).then((result) => {
            onProgress?.(100);
            resolve(result);
          }, reject);
        };
        xhr.onerror = () => reject(transportFailure(null, 'network'));
        xhr.ontimeout = () => reject(transportFailure(null, 'timeout'));
        // Cancelled by the caller: quiet, like an aborted fetch.
        xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
        if (opts.signal?.aborted) {
          xhr.abort();
          return;
        }
        opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        const form = new FormData();
        const name = typeof (file as File).name === 'string' ? (file as File).name : 'blob';
        form.append(opts.field ?? 'file', file, name);
        xhr.send(form);
      }),
  );
}
