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

export async function downloadFile<N extends EndpointName>(name: N, input: Input<N>, fallbackName: string): Promise<void> {
  const { method, path, payload } = routeOf(name, input as Payload);
  const data = sessionPayload(path, payload);
  const isGet = method === 'GET';
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}${isGet ? query(data) : ''}`, {
      method,
      headers: { 'Accept-Language': currentLang(), ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      body: isGet ? undefined : JSON.stringify(data),
      credentials: 'same-origin',
    });
  } catch {
    return fail(t('http.s502'));
  }
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('application/json')) {
    let text = t('http.s400');
    try {
      const body = (await res.json()) as { datas?: { error?: unknown } };
      const error = body.datas?.error;
      if (typeof error === 'string') text = error;
      else if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') text = (error as { message: string }).message;
    } catch {
      /* not JSON */
    }
    return fail(text);
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filenameOf(res.headers.get('content-disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}
