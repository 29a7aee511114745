import { sessionActions } from '../session';
import { withFeedback } from '../feedback';
import { t } from '../i18n';

let open = false;

/**
 * Code 999 (spec §8): ONE confirm box however many requests fail at once. "Log in again" resets the
 * token and reloads (the guard then sends the user to the login page with a redirect back);
 * "Close page" tries window.close().
 */
export function showExpiredDialog(serverText?: string) {
  if (open) return;
  open = true;
  withFeedback(({ modal, message }) => {
    modal.confirm({
      title: t('api.expiredTitle'),
      content: (
        <div data-testid="session-expired">
          <p style={{ margin: 0 }}>{t('api.expiredText')}</p>
          {serverText ? <p style={{ margin: '8px 0 0', color: 'rgba(0,0,0,0.45)' }}>{serverText}</p> : null}
        </div>
      ),
      okText: t('api.relogin'),
      cancelText: t('api.closePage'),
      closable: false,
      mask: { closable: false },
      keyboard: false,
      okButtonProps: { 'data-testid': 'session-expired-relogin' },
      cancelButtonProps: { 'data-testid': 'session-expired-close' },
      onOk: () => {
        sessionActions.resetToken();
        window.location.reload();
        return new Promise(() => undefined);
      },
      onCancel: () => {
        open = false;
        window.close();
        // Scripts may only close windows they opened: say so when the browser refuses.
        setTimeout(() => {
          if (!window.closed) message.warning(t('api.closeFailed'));
        }, 300);
      },
    });
  });
}

/** For tests and after a successful re-login in the same page. */
export function resetExpiredDialog() {
  open = false;
}
