import { useCallback, useMemo, useState } from 'react';
import { CreateButton, KeywordFilter } from '../../components/list';
import App from 'antd/es/app';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import CrownOutlined from '@ant-design/icons/es/icons/CrownOutlined';
import { useTranslation } from 'react-i18next';
import type { AdminRow } from '@app/contract/api/jurisdiction';
import { ListPage, numberFilter, RelativeTime, useConfirmDelete, useFormModal, useListParams } from '../../components';
import { useAccess } from '../../lib/access';
import { formatDate, formatDateTime } from '../../lib/time';
import { useAdmins, useAdminRoleOptions, useDeleteAdmin, useEndAdminSessions, useSetAdminStatus } from './api';
import { useActor } from './actor';
import { whyNotDeleteAdmin, whyNotEditAdmin, whyNotResetPassword, whyNotToggleAdmin } from '@app/contract/api/jurisdiction-rules';
import { ActionLinks, useWhy } from './parts';
import { AdminForm } from './AdminForm';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import './jurisdiction.css';

const FILTERS = ['keyword', 'role_id', 'status'] as const;
const CODECS = [numberFilter('role_id')];
const INSTANT = ['role_id', 'status'];

/** /jurisdiction/admin_user: platform admin users, their role and status; add, edit, reset password, delete. */
export default function AdminUserListPage() {
  const { t } = useTranslation('jurisdiction');
  const params = useListParams({ filters: FILTERS });
  const query = useAdmins(params.query);
  const roles = useAdminRoleOptions();
  const dlg = useFormModal<AdminRow>();
  const [resetting, setResetting] = useState<AdminRow | null>(null);
  const del = useDeleteAdmin(t('common:confirm.deleted'));
  const confirmDelete = useConfirmDelete();
  const { actor } = useActor();
  const { can } = useAccess();
  const { modal, message } = App.useApp();
  const why = useWhy();
  const setStatus = useSetAdminStatus(t('admin.statusSaved'));
  const [pending, setPending] = useState<Record<number, 0 | 1>>({});

  const toggle = useCallback(
    async (row: AdminRow, on: boolean) => {
      const value = on ? 1 : 0;
      setPending((s) => ({ ...s, [row.id]: value }));
      try {
        await setStatus.mutateAsync({ id: row.id, field: 'status', value });
      } catch {
        // Refused (e.g. the last enabled super-admin): the client showed the server's message; the switch reverts.
      } finally {
        setPending((s) => {
          const { [row.id]: _, ...rest } = s;
          return rest;
        });
      }
    },
    [setStatus.mutateAsync],
  );

  const endSessions = useEndAdminSessions();
  const confirmEndSessions = useCallback(
    (r: AdminRow) =>
      modal.confirm({
        title: t('admin.endSessionsTitle', { name: r.username }),
        content: t('admin.endSessionsText'),
        okText: t('admin.endSessions'),
        okButtonProps: { danger: true, 'data-testid': 'confirm-end-sessions' } as never,
        cancelText: t('common:form.cancel'),
        onOk: async () => {
          const { ended } = await endSessions.mutateAsync({ kind: 'admin', id: r.id });
          void message.success(t('admin.endedSessions', { count: ended }));
        },
      }),
    [modal, message, t, endSessions.mutateAsync],
  );

  const roleOptions = useMemo(() => (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })), [roles.data]);

  const columns = useMemo<ColumnsType<AdminRow>>(
    () => [
      {
        key: 'username',
        dataIndex: 'username',
        title: t('admin.col.username'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (
          <Space size={6} data-testid={`admin-row-${v}`}>
            <Typography.Text strong className="mono">
              {v}
            </Typography.Text>
            {r.id === actor.adminId ? (
              <Tag color="processing" variant="filled">
                {t('admin.you')}
              </Tag>
            ) : null}
          </Space>
        ),
      },
      { key: 'name', dataIndex: 'name', title: t('admin.col.name'), sorter: true },
      { key: 'phone', dataIndex: 'phone', title: t('admin.col.phone'), render: (v: string) => (v ? <span className="mono">{v}</span> : <span className="text-muted">—</span>) },
      {
        key: 'role',
        dataIndex: 'role_name',
        title: t('admin.col.role'),
        render: (v: string, r) =>
          r.role_is_super ? (
            <Tag color="gold" icon={<CrownOutlined />}>
              {v}
            </Tag>
          ) : v ? (
            <Tag>{v}</Tag>
          ) : (
            <span className="text-muted">—</span>
          ),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('admin.col.status'),
        sorter: true,
        render: (v: 0 | 1, r) => {
          const tag = <Tag color={v ? 'success' : 'default'}>{v ? t('status.enabled') : t('status.disabled')}</Tag>;
          if (!can('admin:status')) return tag;
          const blocked = why(whyNotToggleAdmin(r, actor));
          const sw = (
            <Switch
              size="small"
              checked={(pending[r.id] ?? v) === 1}
              loading={r.id in pending}
              disabled={!!blocked}
              onChange={(on) => toggle(r, on)}
              aria-label={t('admin.col.status')}
              checkedChildren={t('status.on')}
              unCheckedChildren={t('status.off')}
              data-testid={`admin-status-${r.username}`}
            />
          );
          return blocked ? <Tooltip title={blocked}>{sw}</Tooltip> : sw;
        },
      },
      {
        key: 'last_login_at',
        dataIndex: 'last_login_at',
        title: t('admin.col.lastLogin'),
        sorter: true,
        render: (v: string | null) => (
          <span className="jur-nowrap">
            <RelativeTime value={v} placeholder={t('admin.never')} />
          </span>
        ),
      },
      {
        key: 'created_at',
        dataIndex: 'created_at',
        title: t('admin.col.created'),
        sorter: true,
        render: (v: string) => (
          <Tooltip title={formatDateTime(v)}>
            <span className="jur-nowrap">{formatDate(v)}</span>
          </Tooltip>
        ),
      },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <ActionLinks
            actions={[
              { key: 'edit', sign: 'admin:edit', label: t('common:form.edit'), disabledReason: why(whyNotEditAdmin(r, actor)), onClick: () => dlg.openEdit(r) },
              { key: 'reset-password', sign: 'admin:reset-password', label: t('admin.resetPassword'), disabledReason: why(whyNotResetPassword(r, actor)), onClick: () => setResetting(r) },
              {
                key: 'end-sessions',
                sign: 'admin:status',
                label: t('admin.endSessions'),
                disabledReason: r.id === actor.adminId ? t('admin.endSessionsSelf') : null,
                onClick: () => confirmEndSessions(r),
              },
              {
                key: 'delete',
                sign: 'admin:delete',
                label: t('common:confirm.delete'),
                danger: true,
                disabledReason: why(whyNotDeleteAdmin(r, actor)),
                onClick: () => confirmDelete({ name: r.username, content: t('admin.deleteText'), onOk: () => del.mutateAsync({ id: r.id }) }),
              },
            ]}
          />
        ),
      },
    ],
    [t, actor, can, pending, del.mutateAsync, why, toggle, dlg.openEdit, confirmDelete, confirmEndSessions],
  );

  return (
    <>
      <ListPage<AdminRow, (typeof FILTERS)[number]>
        listName="jurisdiction.adminList"
        testId="admin-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('admin.noData')}
        toolbar={
          <CreateButton sign="admin:add" onClick={dlg.openCreate} testId="admin-create">
            {t('admin.create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('admin.filter.keyword')} placeholder={t('admin.filter.keywordPlaceholder')} width={220} />
            <Form.Item name="role_id" label={t('admin.col.role')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 180 }} options={roleOptions} loading={roles.isFetching} data-testid="filter-role" />
            </Form.Item>
            <Form.Item name="status" label={t('admin.col.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 130 }}
                options={[
                  { value: '1', label: t('status.enabled') },
                  { value: '0', label: t('status.disabled') },
                ]}
                data-testid="filter-status"
              />
            </Form.Item>
          </>
        }
      />
      <AdminForm dlg={dlg} actor={actor} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
