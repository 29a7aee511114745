/**
 * Things to drop when the identity changes (login, logout, view-as-role): modules loaded later (the
 * query cache lives with the shell, not in the login bundle) register here.
 */
const hooks = new Set<() => void>();

export function onSessionReset(fn: () => void): () => void {
  hooks.add(fn);
  return () => hooks.delete(fn);
}

export function runSessionReset() {
  for (const fn of hooks) fn();
}
