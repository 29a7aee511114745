/**
 * Messages, modals and notifications from antd's App.useApp(), so they follow theme, size and locale
 * (ui.md). A component inside <App> binds the instance at start-up; code outside React (the api
 * client) uses it through here.
 */
import type { App } from 'antd';

export type Feedback = ReturnType<typeof App.useApp>;

let current: Feedback | null = null;
const pending: { at: number; fn: (f: Feedback) => void }[] = [];
/** A message waiting for the App longer than this is stale (e.g. raised on the login page, which has no App). */
const MAX_WAIT_MS = 3000;

export function bindFeedback(f: Feedback) {
  current = f;
  const now = Date.now();
  while (pending.length) {
    const p = pending.shift()!;
    if (now - p.at <= MAX_WAIT_MS) p.fn(f);
  }
  return () => {
    if (current === f) current = null;
  };
}

/** Runs now when the App is mounted, or as soon as it is (unless that is too late to make sense). */
export function withFeedback(fn: (f: Feedback) => void) {
  if (current) fn(current);
  else pending.push({ at: Date.now(), fn });
}

export const hasFeedback = () => current !== null;
