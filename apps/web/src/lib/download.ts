/**
 * Downloads of raw endpoints (every list's export): the call goes like any other (session fields, language), the
 * answer is saved as a file under the name the server gives. A refusal comes back as the usual envelope:
 * its message is shown and thrown.
 */
import { API_BASE } from '@app/contract/constants';
import { ApiError, routeOf, sessionPayload, type EndpointName, type Input, type Payload } from './api';
import { withFeedback } from './feedback';
import { currentLang, t } from './i18n';

/** The file name of a Content-Disposition header (RFC 6266: filename* first). */
export function filenameOf(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? fallback;
}

const query = (payload: Payload) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(payload)) if (v !== undefined && v !== null && v !== '') params.append(k, String(v));
  return `?${params.toString()}`;
};

const fail = (text: string): never => {
  withFeedback(({ message }) => {
    void message.error({ content: text, key: text });
  });
  throw new ApiError('business', text, { code: 400, notified: true });
};

/** How far a download has come: bytes received, lines (CSV rows, the title row left out) and the total the server announced. */
export interface DownloadProgress {
  bytes: number;
  rows: number | null;
  total: number | null;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Count CSV lines as rows while they arrive. */
  countRows?: boolean;
}

/** A message from a refused call's envelope, in the user's language (the server wrote it so). */
async function refusalOf(res: Response): Promise<string> {
  let text = t('http.s400');
  try {
    const body = (await res.json()) as { datas?: { error?: unknown } };
    const error = body.datas?.error;
    if (typeof error === 'string') text = error;
    else if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') text = (error as { message: string }).message;
  } catch {
    /* not JSON */
  }
  return text;
}

const NEWLINE = 10;

/**
 * Calls a raw endpoint and saves its answer as a file, reading the body as a stream: `onProgress` hears
 * every chunk (bytes, CSV rows, the X-Total-Count the server sent), `signal` cancels (resolves null,
 * nothing saved, no message). Resolves the saved file's name. A refusal or a cut stream shows its message and throws.
 */
export async function downloadFile<N extends EndpointName>(name: N, input: Input<N>, fallbackName: string, opts: DownloadOptions = {}): Promise<string | null> {
  const { method, path, payload } = routeOf(name, input as Payload);
  const data = sessionPayload(path, payload);
  const isGet = method === 'GET';
  const aborted = () => opts.signal?.aborted === true;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}${isGet ? query(data) : ''}`, {
      method,
      headers: { 'Accept-Language': currentLang(), ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      body: isGet ? undefined : JSON.stringify(data),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch {
    if (aborted()) return null;
    return fail(t('http.s502'));
  }
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('application/json')) return fail(await refusalOf(res));
  const totalHeader = res.headers.get('x-total-count');
  const total = totalHeader && /^\d+$/.test(totalHeader) ? Number(totalHeader) : null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const progress: DownloadProgress = { bytes: 0, rows: opts.countRows ? -1 : null, total };
  opts.onProgress?.({ ...progress, rows: progress.rows == null ? null : 0 });
  try {
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array<ArrayBuffer>);
      progress.bytes += value.byteLength;
      if (progress.rows != null) for (const byte of value) if (byte === NEWLINE) progress.rows++;
      opts.onProgress?.({ ...progress, rows: progress.rows == null ? null : Math.max(0, progress.rows) });
    }
  } catch {
    if (aborted()) return null;
    return fail(t('export.failed'));
  }
  // A cancel that ended the body quietly (no error) still saves nothing.
  if (aborted()) return null;
  const blob = new Blob(chunks, { type: res.headers.get('content-type') ?? 'application/octet-stream' });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  const saved = filenameOf(res.headers.get('content-disposition'), fallbackName);
  link.download = saved;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
  return saved;
}
