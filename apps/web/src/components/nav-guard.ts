/**
 * The navigation side of the unsaved-changes guard (components/useDirtyGuard.tsx): the open dirty forms, and the
 * hooks that hold a move while one is open. Its `popstate` listener must be on window before the router's (both
 * listen on window; the first one registered runs first and may stop the other), so app/router.tsx imports this
 * module before the router mounts.
 */
export interface Guard {
  dirty: () => boolean;
  ask: () => Promise<boolean>;
  discard: () => void;
}

export const guards: Guard[] = [];
const topDirty = () => [...guards].reverse().find((g) => g.dirty());

export type Nav = { push: (...a: unknown[]) => void; replace: (...a: unknown[]) => void };
const patched = new WeakSet<object>();

/** Wraps the router's navigator once: a move asks the top dirty form first. */
export function guardNavigator(navigator: Nav) {
  if (patched.has(navigator)) return;
  patched.add(navigator);
  for (const method of ['push', 'replace'] as const) {
    const original = navigator[method].bind(navigator);
    navigator[method] = (...args: unknown[]) => {
      const guard = topDirty();
      if (!guard) return original(...args);
      void guard.ask().then((discard) => {
        if (!discard) return;
        guard.discard();
        original(...args);
      });
    };
  }
}

let popInstalled = false;
let swallow = 0;
let passNext = false;
const historyIndex = () => (window.history.state as { idx?: number } | null)?.idx ?? 0;
let shownIndex = 0;

/** Back/forward while a form is dirty: the address is put back, then the question; on discard, the move again. */
export function installPopGuard() {
  if (popInstalled) return;
  popInstalled = true;
  shownIndex = historyIndex();
  window.addEventListener(
    'popstate',
    (event) => {
      if (swallow > 0) {
        swallow--;
        event.stopImmediatePropagation();
        return;
      }
      const target = historyIndex();
      const guard = passNext ? undefined : topDirty();
      passNext = false;
      if (!guard) {
        shownIndex = target;
        return;
      }
      event.stopImmediatePropagation();
      const delta = shownIndex - target;
      if (delta === 0) return;
      swallow++;
      window.history.go(delta);
      void guard.ask().then((discard) => {
        if (!discard) return;
        guard.discard();
        passNext = true;
        window.history.go(-delta);
      });
    },
    { capture: true },
  );
  // Keep the shown index current for moves the router makes itself (push/replace do not fire popstate).
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method].bind(window.history);
    window.history[method] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      shownIndex = historyIndex();
    };
  }
}

export function onBeforeUnload(event: BeforeUnloadEvent) {
  if (!topDirty()) return;
  event.preventDefault();
  // Older browsers read the return value.
  event.returnValue = '';
}

// Registered at import, ahead of the router's own listener.
if (typeof window !== 'undefined') installPopGuard();
