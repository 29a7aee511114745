/**
 * Asks before a form with unsaved changes is dropped (issue 36): closing its dialog or drawer (Esc, the close
 * button, Cancel, a click on the mask), moving to another page of the app (links, menus, `navigate`), going
 * back or forward in the browser, and leaving or reloading the page (the browser's own question).
 *
 * The app runs a BrowserRouter (no data router, so no `useBlocker`): in-app moves are held by wrapping its
 * navigator's push/replace, and the browser's back/forward by a capturing `popstate` listener on window,
 * installed before the router's own (components/nav-guard.ts, imported by app/router.tsx), which, while a form
 * is dirty, stops the router from seeing the move, puts the address back and asks.
 * Only the most recently opened dirty form answers; the others wait under it.
 */
import { useCallback, useContext, useEffect, useRef } from 'react';
import App from 'antd/es/app';
import { UNSAFE_NavigationContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import './list/shape-locales';
import { type Guard, guardNavigator, guards, installPopGuard, onBeforeUnload, type Nav } from './nav-guard';

export interface DirtyGuard {
  /** Close through this: asks first when the form has unsaved changes. */
  requestClose: () => void;
}

/**
 * `const guard = useDirtyGuard({ open, dirty: () => form.isFieldsTouched(), onClose })`; wire `guard.requestClose`
 * to every way the dialog closes without saving. `dirty` is read when a close or a move is attempted.
 */
export function useDirtyGuard({ open, dirty, onClose }: { open: boolean; dirty: () => boolean; onClose: () => void }): DirtyGuard {
  const { modal } = App.useApp();
  const { t } = useTranslation('shape');
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const latest = useRef({ dirty, onClose });
  latest.current = { dirty, onClose };
  const asking = useRef<Promise<boolean> | null>(null);

  const ask = useCallback(() => {
    asking.current ??= new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('dirty.title'),
        content: t('dirty.text'),
        okText: t('dirty.discard'),
        cancelText: t('dirty.keep'),
        // Enter keeps the work: the safe answer has the focus.
        autoFocusButton: 'cancel',
        okButtonProps: { danger: true, 'data-testid': 'dirty-discard' } as never,
        cancelButtonProps: { 'data-testid': 'dirty-keep' } as never,
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    }).finally(() => {
      asking.current = null;
    });
    return asking.current;
  }, [modal, t]);

  useEffect(() => {
    if (!open) return;
    guardNavigator(navigator as unknown as Nav);
    installPopGuard();
    const guard: Guard = { dirty: () => latest.current.dirty(), ask, discard: () => latest.current.onClose() };
    guards.push(guard);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guards.splice(guards.indexOf(guard), 1);
      if (!guards.length) window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [open, navigator, ask]);

  const requestClose = useCallback(() => {
    if (!latest.current.dirty()) return latest.current.onClose();
    void ask().then((discard) => {
      if (discard) latest.current.onClose();
    });
  }, [ask]);

  return { requestClose };
}
