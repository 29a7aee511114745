/** The error log (spec §8): uncaught UI errors in production builds, viewable and clearable. */
import { create } from 'zustand';

export interface ErrorEntry {
  id: number;
  message: string;
  stack?: string;
  source: 'error' | 'promise' | 'render';
  url: string;
  time: number;
}

interface ErrorLogState {
  entries: ErrorEntry[];
  add: (e: Omit<ErrorEntry, 'id' | 'time' | 'url'> & { url?: string }) => void;
  clear: () => void;
}

const MAX_ENTRIES = 100;
let seq = 0;

export const useErrorLog = create<ErrorLogState>()((set, get) => ({
  entries: [],
  add: (e) => {
    const entry: ErrorEntry = { ...e, id: ++seq, time: Date.now(), url: e.url ?? (typeof location !== 'undefined' ? location.href : '') };
    set({ entries: [entry, ...get().entries].slice(0, MAX_ENTRIES) });
  },
  clear: () => set({ entries: [] }),
}));

const describe = (reason: unknown): { message: string; stack?: string } => {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack };
  if (typeof reason === 'string') return { message: reason };
  try {
    return { message: JSON.stringify(reason) };
  } catch {
    return { message: String(reason) };
  }
};

/** Production only: window errors and unhandled rejections go to the log. */
export function installErrorLog() {
  if (!import.meta.env.PROD) return;
  window.addEventListener('error', (ev) => {
    // Resource load errors (img/script) have no error object and are not UI errors.
    if (!ev.error && !ev.message) return;
    const d = describe(ev.error ?? ev.message);
    useErrorLog.getState().add({ ...d, source: 'error' });
  });
  window.addEventListener('unhandledrejection', (ev) => {
    const reason = ev.reason as { kind?: string; notified?: boolean } | undefined;
    // API failures were already shown to the user; they are not UI bugs.
    if (reason && typeof reason === 'object' && 'notified' in reason && reason.notified) return;
    useErrorLog.getState().add({ ...describe(ev.reason), source: 'promise' });
  });
}

export function logRenderError(error: unknown, componentStack?: string | null) {
  if (!import.meta.env.PROD) return;
  const d = describe(error);
  useErrorLog.getState().add({ message: d.message, stack: [d.stack, componentStack].filter(Boolean).join('\n'), source: 'render' });
}
