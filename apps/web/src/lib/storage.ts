/**
 * Client-side persistence (spec §3 "Stored client state"): the token lives in the `Admin-Token` cookie,
 * everything else in localStorage under one prefix. All reads are synchronous so stores can be
 * initialised before the first render (no flash of defaults).
 */
import { TOKEN_COOKIE } from '@app/contract/constants';
import { STORAGE_PREFIX as PREFIX } from './storage-keys';

const hasDom = typeof document !== 'undefined';
/** Asked at each use (a test may provide a storage after this module has loaded). */
const hasStorage = () => typeof localStorage !== 'undefined';

export function getToken(): string | null {
  if (!hasDom) return null;
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${TOKEN_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(TOKEN_COOKIE.length + 1)) || null : null;
}

export function setToken(token: string): void {
  if (!hasDom) return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the session is read synchronously before the first render (getToken); the async Cookie Store API cannot serve that and is missing in some supported browsers
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; path=/; SameSite=Lax${secure}`;
}

export function removeToken(): void {
  if (!hasDom) return;
  // biome-ignore lint/suspicious/noDocumentCookie: same as setToken (synchronous, every supported browser)
  document.cookie = `${TOKEN_COOKIE}=; path=/; max-age=0; SameSite=Lax`;
}

export function readJson<T>(name: string, fallback: T): T {
  if (!hasStorage()) return fallback;
  try {
    const raw = localStorage.getItem(PREFIX + name);
    return raw == null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeJson(name: string, value: unknown): void {
  if (!hasStorage()) return;
  try {
    if (value === undefined || value === null) localStorage.removeItem(PREFIX + name);
    else localStorage.setItem(PREFIX + name, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the app still works, it just forgets.
  }
}

export function removeKey(name: string): void {
  if (hasStorage()) localStorage.removeItem(PREFIX + name);
}
