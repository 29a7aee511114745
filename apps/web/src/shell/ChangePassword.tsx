/**
 * Change own password (spec §5): empty -> 'password cannot be empty'; trimmed shorter than 3 ->
 * 'password length cannot be less than 3'; then POST /member/modify_field. Unlike the spec, success is
 * reported only once the server confirms; its message (it enforces its own minimum) is shown otherwise.
 * The current password is asked first (trust-api.md, step-up): it goes to /auth/reauth before the change.
 */
import { useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { passwordRuleError } from '../lib/password';
import { call, isApiError } from '../lib/api';
import { useSession } from '../lib/session';
import { useUi } from '../lib/ui';
import { useOpening } from '../components/FormModal';
import { useDirtyGuard } from '../components/useDirtyGuard';

export default function ChangePasswordDialog() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const open = useUi((s) => s.passwordOpen);
  const set = useUi((s) => s.set);
  const userId = useSession((s) => s.userId);
  const [form] = Form.useForm<{ current: string; value: string }>();
  const [saving, setSaving] = useState(false);
  const opening = useOpening(open);

  const close = () => {
    set({ passwordOpen: false });
    form.resetFields();
  };
  // Typed passwords are not dropped without asking (Esc, the close button, Cancel, a move to another page).
  const guard = useDirtyGuard({ open, dirty: () => form.isFieldsTouched(), onClose: close });

  const submit = async () => {
    let values: { current: string; value: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      // The current password first (ASVS 6.2.3): it re-authenticates this session (step-up), which the
      // change itself requires; a wrong one shows under its field and nothing changes.
      try {
        await call('auth.reauth', { password: values.current }, { silent: true, noStepUp: true });
      } catch (err) {
        if (isApiError(err) && err.kind === 'business') form.setFields([{ name: 'current', errors: [err.message] }]);
        return;
      }
      // The session always knows its user id once signed in; without one the server refuses the call.
      await call('auth.modifyField', { id: userId ?? 0, field: 'password', value: values.value });
      void message.success(t('password.changed'));
      close();
    } catch (err) {
      if (isApiError(err) && err.kind === 'business') form.setFields([{ name: 'value', errors: [err.fields.value ?? err.message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('password.title')}
      onCancel={guard.requestClose}
      footer={[
        <Button key="cancel" onClick={guard.requestClose}>
          {t('form.cancel')}
        </Button>,
        <Button key={`ok-${opening}`} type="primary" loading={saving} onClick={submit} data-testid="change-password-ok">
          {t('form.ok')}
        </Button>,
      ]}
      destroyOnHidden
      forceRender
      width={420}
      data-testid="change-password-dialog"
    >
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <Form.Item name="current" label={t('password.current')} rules={[{ required: true, message: t('password.currentEmpty') }]} validateTrigger="onSubmit">
          <Input.Password placeholder={t('password.currentPlaceholder')} autoComplete="current-password" data-testid="change-password-current" />
        </Form.Item>
        <Form.Item
          name="value"
          label={t('password.newPassword')}
          rules={[
            {
              validator: (_, v) => {
                const e = passwordRuleError(v);
                return e ? Promise.reject(new Error(t(e.key, e.params))) : Promise.resolve();
              },
            },
          ]}
          validateTrigger="onSubmit"
        >
          <Input.Password placeholder={t('password.placeholder')} autoComplete="new-password" data-testid="change-password-input" />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
