import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import CrownOutlined from '@ant-design/icons/es/icons/CrownOutlined';
import { useTranslation } from 'react-i18next';
import { ADMIN_PHONE_RE, ADMIN_USERNAME_RE, adminFields, type AdminRow } from '@app/contract/api/jurisdiction';
import { whyNotChangeAdminRole, type Actor } from '@app/contract/api/jurisdiction-rules';
import { FormModal, type useFormModal } from '../../components';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { useSettings } from '../../lib/settings';
import { useAddAdmin, useEditAdmin, useAdminRoleOptions } from './api';
import { useWhy } from './parts';
import { passwordRules, confirmRules } from './passwords';

interface Values {
  username: string;
  name: string;
  phone: string;
  role_id: number;
  password: string;
  confirm: string;
}

/** Add (username, name, phone, role, initial password twice) / edit (name, phone, role) an admin user. */
export function AdminForm({ dlg, actor }: { dlg: ReturnType<typeof useFormModal<AdminRow>>; actor: Actor }) {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const add = useAddAdmin();
  const edit = useEditAdmin();
  const roles = useAdminRoleOptions();
  const why = useWhy();
  const row = dlg.record;
  const roleLocked = row ? why(whyNotChangeAdminRole(row, actor)) : null;

  const submit = (v: Values) => {
    const base = { name: v.name.trim(), phone: (v.phone ?? '').trim(), role_id: v.role_id };
    return row ? edit.mutateAsync({ id: row.id, ...base }) : add.mutateAsync({ ...base, username: v.username.trim(), password: v.password });
  };

  const required = (field: string) => ({ required: true, whitespace: true, message: t('common:form.required', { field }) });

  return (
    <FormModal<Values>
      open={dlg.open}
      title={row ? t('admin.editTitle', { name: row.username }) : t('admin.createTitle')}
      initialValues={row ? { username: row.username, name: row.name, phone: row.phone, role_id: row.role_id } : { phone: '' }}
      onClose={dlg.close}
      onSubmit={submit}
      width={600}
      testId="admin-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="username"
            label={t('admin.form.username')}
            extra={row ? t('admin.form.usernameFixed') : undefined}
            rules={row ? [] : [required(t('admin.form.username')), { pattern: ADMIN_USERNAME_RE, message: t('admin.form.usernameInvalid') }]}
          >
            <Input disabled={!!row} maxLength={64} autoComplete="off" spellCheck={false} placeholder={t('admin.form.usernamePlaceholder')} data-testid="admin-form-username" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('admin.form.name')} rules={fieldRules(adminFields.name, lang, t('admin.form.name'))}>
            <Input maxLength={limitsOf(adminFields.name).maxLength} autoComplete="off" data-testid="admin-form-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="phone" label={t('admin.form.phone')} rules={[{ max: limitsOf(adminFields.phone).maxLength }, { pattern: ADMIN_PHONE_RE, message: t('admin.form.phoneInvalid') }]}>
            <Input maxLength={limitsOf(adminFields.phone).maxLength} inputMode="tel" autoComplete="off" data-testid="admin-form-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="role_id"
            label={t('admin.form.role')}
            extra={roleLocked ?? undefined}
            rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('admin.form.role') }) }]}
          >
            <Select
              disabled={!!roleLocked}
              loading={roles.isFetching}
              placeholder={t('admin.form.rolePlaceholder')}
              showSearch={{ optionFilterProp: 'name' }}
              options={(roles.data ?? []).map((r) => ({
                value: r.id,
                name: r.name,
                // Only a super-admin hands out the super role (the server says so too).
                disabled: r.is_super && !actor.isSuper,
                label: (
                  <Space size={6}>
                    {r.is_super ? <CrownOutlined className="jur-crown" /> : null}
                    <span>{r.name}</span>
                    {!r.status ? (
                      <Tag variant="filled" className="jur-inline-tag">
                        {t('status.disabled')}
                      </Tag>
                    ) : null}
                  </Space>
                ),
              }))}
              data-testid="admin-form-role"
            />
          </Form.Item>
        </Col>
        {!row ? (
          <>
            <Col xs={24} sm={12}>
              <Form.Item name="password" label={t('admin.form.password')} rules={passwordRules(t)} hasFeedback>
                <Input.Password autoComplete="new-password" data-testid="admin-form-password" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="confirm" label={t('admin.form.confirm')} dependencies={['password']} rules={confirmRules(t, 'password')} hasFeedback>
                <Input.Password autoComplete="new-password" data-testid="admin-form-confirm" />
              </Form.Item>
            </Col>
          </>
        ) : null}
      </Row>
    </FormModal>
  );
}
