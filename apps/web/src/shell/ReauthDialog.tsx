/**
 * Step-up's prompt (lib/reauth.ts): shown when a call is refused with `reauth_required`; the password (or,
 * for an account with a second factor, a code from its app, on request) goes to `/auth/reauth`, and
 * on success every waiting call is sent again. Wrong answers (and the throttle's "try again in ...") show
 * under the field; cancelling leaves the refused call as it was.
 */
import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { call, isApiError } from '../lib/api';
import { mountReauthDialog, settleReauth, useReauth } from '../lib/reauth';

export function ReauthDialog() {
  const { t } = useTranslation();
  const open = useReauth((s) => s.open);
  const [form] = Form.useForm<{ password?: string; code?: string }>();
  const [saving, setSaving] = useState(false);
  // Whether the account has a second factor: asked when the prompt opens (any session may ask).
  const mfa = useQuery({ queryKey: ['mfa.status', 'reauth'], queryFn: () => call('mfa.status', undefined, { silent: true }), enabled: open, staleTime: 0 });
  // The password by default: a call that itself carries a code (turning the factor off) must not have
  // that code spent by the prompt first.
  const [useCode, setUseCode] = useState(false);
  const byCode = !!mfa.data?.enabled && useCode;
  useEffect(() => mountReauthDialog(), []);
  useEffect(() => {
    if (!open) {
      form.resetFields();
      setUseCode(false);
    }
  }, [open, form]);

  const submit = async () => {
    let values: { password?: string; code?: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await call('auth.reauth', byCode ? { code: values.code ?? '' } : { password: values.password ?? '' }, { silent: true, noStepUp: true });
      settleReauth(true);
    } catch (err) {
      form.setFields([{ name: byCode ? 'code' : 'password', errors: [isApiError(err) ? err.message : String(err)] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('reauth.title')}
      onCancel={() => settleReauth(false)}
      footer={[
        <Button key="cancel" onClick={() => settleReauth(false)}>
          {t('form.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={submit} data-testid="reauth-ok">
          {t('reauth.confirm')}
        </Button>,
      ]}
      destroyOnHidden
      width={420}
      zIndex={2000}
      data-testid="reauth-dialog"
    >
      <Typography.Paragraph type="secondary">{t(byCode ? 'reauth.textCode' : 'reauth.text')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        {byCode ? (
          <Form.Item name="code" label={t('reauth.code')} rules={[{ required: true, message: t('reauth.codeEmpty') }]} validateTrigger="onSubmit">
            <Input autoComplete="one-time-code" inputMode="numeric" autoFocus data-testid="reauth-code" />
          </Form.Item>
        ) : (
          <Form.Item name="password" label={t('reauth.password')} rules={[{ required: true, message: t('reauth.empty') }]} validateTrigger="onSubmit">
            <Input.Password autoComplete="current-password" autoFocus data-testid="reauth-password" />
          </Form.Item>
        )}
        {mfa.data?.enabled ? (
          <Button type="link" size="small" onClick={() => setUseCode(!useCode)} data-testid="reauth-switch">
            {t(byCode ? 'reauth.usePassword' : 'reauth.useCode')}
          </Button>
        ) : null}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
