/**
 * Step-up's password prompt (lib/reauth.ts): shown when a call is refused with `reauth_required`; the
 * password goes to `/auth/reauth`, and on success every waiting call is sent again. Wrong passwords (and
 * the throttle's "try again in ...") show under the field; cancelling leaves the refused call as it was.
 */
import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { call, isApiError } from '../lib/api';
import { mountReauthDialog, settleReauth, useReauth } from '../lib/reauth';

export function ReauthDialog() {
  const { t } = useTranslation();
  const open = useReauth((s) => s.open);
  const [form] = Form.useForm<{ password: string }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => mountReauthDialog(), []);
  useEffect(() => {
    if (!open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    let values: { password: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await call('auth.reauth', { password: values.password }, { silent: true, noStepUp: true });
      settleReauth(true);
    } catch (err) {
      form.setFields([{ name: 'password', errors: [isApiError(err) ? err.message : String(err)] }]);
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
      <Typography.Paragraph type="secondary">{t('reauth.text')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="password" label={t('reauth.password')} rules={[{ required: true, message: t('reauth.empty') }]} validateTrigger="onSubmit">
          <Input.Password autoComplete="current-password" autoFocus data-testid="reauth-password" />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
