/**
 * Step-up in the web app (trust-api.md): a call the server refuses with `reauth_required` asks the user
 * for the password in place (the shell's ReauthDialog), then is sent again, so that no form is lost.
 * Calls refused at the same moment share one prompt. Without a mounted dialog (no shell) the prompt is
 * declined at once and the refusal stands.
 */
import { create } from 'zustand';

interface ReauthState {
  /** The prompt is showing; settled by `settle`. */
  open: boolean;
  /** Dialogs mounted (the shell's). */
  mounted: number;
}

export const useReauth = create<ReauthState>()(() => ({ open: false, mounted: 0 }));

let waiting: Promise<boolean> | null = null;
let resolveWaiting: ((ok: boolean) => void) | null = null;

/** Asks for the password (once for every call waiting): true once the session is re-authenticated. */
export function askReauth(): Promise<boolean> {
  if (!useReauth.getState().mounted) return Promise.resolve(false);
  if (!waiting) {
    waiting = new Promise<boolean>((resolve) => {
      resolveWaiting = resolve;
    });
    useReauth.setState({ open: true });
  }
  return waiting;
}

/** The dialog's answer: re-authenticated (true) or cancelled (false). */
export function settleReauth(ok: boolean) {
  const resolve = resolveWaiting;
  waiting = null;
  resolveWaiting = null;
  useReauth.setState({ open: false });
  resolve?.(ok);
}

/** The shell's dialog says it is there (and gone when it unmounts). */
export function mountReauthDialog(): () => void {
  useReauth.setState((s) => ({ mounted: s.mounted + 1 }));
  return () => {
    useReauth.setState((s) => ({ mounted: s.mounted - 1 }));
    if (!useReauth.getState().mounted) settleReauth(false);
  };
}
