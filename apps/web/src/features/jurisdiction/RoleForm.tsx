import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { roleFields, type RoleDetail } from '@app/contract/api/jurisdiction';
import { FormModal, type useFormModal } from '../../components';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { useSettings } from '../../lib/settings';
import { useAddRole, useEditRole, useGrantTree } from './api';
import { GrantTree } from './GrantTree';

interface Values {
  name: string;
  description: string;
  status: boolean;
  menu_ids: number[];
}

/** The role drawer: name, description, status and the grant tree. The super role keeps everything. */
export function RoleForm({ dlg }: { dlg: ReturnType<typeof useFormModal<RoleDetail>> }) {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const add = useAddRole();
  const edit = useEditRole();
  const grants = useGrantTree(dlg.open);
  const role = dlg.record;
  const isSuper = !!role?.is_super;

  const submit = (v: Values) => {
    const base = { name: v.name.trim(), description: (v.description ?? '').trim() };
    // The super role: rename only (its grants and status are fixed; the server refuses anything else).
    if (role && isSuper) return edit.mutateAsync({ id: role.id, ...base });
    const body = { ...base, status: (v.status ? 1 : 0) as 0 | 1, menu_ids: v.menu_ids ?? [] };
    return role ? edit.mutateAsync({ id: role.id, ...body }) : add.mutateAsync(body);
  };

  return (
    <FormModal<Values>
      open={dlg.open}
      variant="drawer"
      width={640}
      title={role ? t('role.editTitle', { name: role.name }) : t('role.createTitle')}
      initialValues={role ? { name: role.name, description: role.description, status: role.status, menu_ids: role.menu_ids } : { status: true, menu_ids: [] }}
      onClose={dlg.close}
      onSubmit={submit}
      testId="role-form"
    >
      <Form.Item name="name" label={t('role.form.name')} rules={fieldRules(roleFields.name, lang, t('role.form.name'))}>
        <Input maxLength={limitsOf(roleFields.name).maxLength} placeholder={t('role.form.namePlaceholder')} data-testid="role-form-name" />
      </Form.Item>
      <Form.Item name="description" label={t('role.form.description')} rules={[{ max: limitsOf(roleFields.description).maxLength }]}>
        <Input.TextArea
          maxLength={limitsOf(roleFields.description).maxLength}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder={t('role.form.descriptionPlaceholder')}
          data-testid="role-form-description"
        />
      </Form.Item>
      <Form.Item name="status" label={t('role.form.status')} valuePropName="checked" extra={isSuper ? t('why.superRoleFixed') : t('role.form.statusHelp')}>
        <Switch disabled={isSuper} checkedChildren={t('status.enabled')} unCheckedChildren={t('status.disabled')} data-testid="role-form-status" />
      </Form.Item>
      <Form.Item name="menu_ids" label={t('role.form.grants')} extra={isSuper ? undefined : t('role.form.grantsHelp')}>
        {isSuper ? <LockedGrants tree={grants.data} loading={grants.isFetching} /> : <GrantTree tree={grants.data} loading={grants.isFetching} />}
      </Form.Item>
    </FormModal>
  );
}

function LockedGrants(props: { tree: Parameters<typeof GrantTree>[0]['tree']; loading: boolean }) {
  const { t } = useTranslation('jurisdiction');
  return (
    <>
      <Alert type="info" showIcon className="jur-form-alert" title={t('role.form.superGrants')} data-testid="super-grants-alert" />
      <GrantTree {...props} locked />
    </>
  );
}
