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
import EyeOutlined from '@ant-design/icons/es/icons/EyeOutlined';
import CrownOutlined from '@ant-design/icons/es/icons/CrownOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RoleDetail, RoleRow } from '@app/contract/api/jurisdiction';
import { ListPage, RelativeTime, useConfirmDelete, useFormModal, useListParams } from '../../components';
import { useAccess } from '../../lib/access';
import { useSettings } from '../../lib/settings';
import { withFeedback } from '../../lib/feedback';
import { formatNumber } from '../../lib/money';
import { currentLandingPath, startViewAs } from '../../lib/view-as';
import { useRoles, roleDetailQuery, useSetRoleStatus, useDeleteRole } from './api';
import { useActor } from './actor';
import { whyNotDeleteRole, whyNotEditRole, whyNotToggleRole, whyNotViewAs } from '@app/contract/api/jurisdiction-rules';
import { ActionLinks, LockBadge, useWhy } from './parts';
import { RoleForm } from './RoleForm';
import './jurisdiction.css';

const FILTERS = ['keyword', 'status'] as const;
const INSTANT = ['status'];

/** /jurisdiction/role (also where /jurisdiction leads): roles, their grants, and "view as". */
export default function RoleListPage() {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const params = useListParams({ filters: FILTERS });
  const query = useRoles(params.query);
  const dlg = useFormModal<RoleDetail>();
  const del = useDeleteRole(t('common:confirm.deleted'));
  const setStatus = useSetRoleStatus();
  const confirmDelete = useConfirmDelete();
  const { modal, message } = App.useApp();
  const { actor, viewing } = useActor();
  const { can } = useAccess();
  const why = useWhy();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [opening, setOpening] = useState<number | null>(null);
  const [toggling, setToggling] = useState<Record<number, boolean>>({});

  const openCreate = () => dlg.openCreate();
  const openEdit = useCallback(
    async (row: RoleRow) => {
      setOpening(row.id);
      try {
        dlg.openEdit(await qc.fetchQuery(roleDetailQuery(row.id)));
      } catch {
        // The client has shown why.
      } finally {
        setOpening(null);
      }
    },
    [qc, dlg.openEdit],
  );

  const toggle = useCallback(
    async (row: RoleRow, on: boolean) => {
      setToggling((s) => ({ ...s, [row.id]: on }));
      try {
        await setStatus.mutateAsync({ id: row.id, status: on ? 1 : 0 });
        void message.success(on ? t('role.enabledMsg', { name: row.name }) : t('role.disabledMsg', { name: row.name }));
      } catch {
        // Refused: the server's message was shown; the switch goes back to the stored value.
      } finally {
        setToggling((s) => {
          const { [row.id]: _, ...rest } = s;
          return rest;
        });
      }
    },
    [setStatus.mutateAsync, message, t],
  );

  const viewAs = useCallback(
    (row: RoleRow) =>
      modal.confirm({
        title: t('role.viewAsTitle', { name: row.name }),
        content: t('role.viewAsText'),
        icon: <EyeOutlined />,
        okText: t('role.viewAsOk'),
        cancelText: t('common:form.cancel'),
        okButtonProps: { 'data-testid': 'view-as-ok' } as Record<`data-${string}`, string>,
        onOk: async () => {
          try {
            await startViewAs(row.id, pathname);
          } catch {
            return; // The api client has shown why; nothing changed.
          }
          // This page (and the App its modal came from) was unmounted by the switch: toast through lib/feedback.
          navigate(currentLandingPath(), { replace: true });
          withFeedback(({ message: m }) => {
            void m.success(t('viewAs.switched', { name: row.name }));
          });
        },
      }),
    [modal, t, pathname, navigate],
  );

  const columns = useMemo<ColumnsType<RoleRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('role.col.name'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (
          <Space size={6} data-testid={`role-row-${v}`}>
            <Typography.Text strong>{v}</Typography.Text>
            {r.is_super ? (
              <>
                <Tag color="gold" icon={<CrownOutlined />} variant="filled" className="jur-super-tag">
                  {t('role.super')}
                </Tag>
                <LockBadge title={t('why.superRoleFixed')} testId="super-lock" />
              </>
            ) : null}
          </Space>
        ),
      },
      {
        key: 'description',
        dataIndex: 'description',
        title: t('role.col.description'),
        render: (v: string) =>
          v ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: v }} style={{ maxWidth: 280 }}>
              {v}
            </Typography.Text>
          ) : (
            <span className="text-muted">—</span>
          ),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('role.col.status'),
        sorter: true,
        render: (v: boolean, r) => {
          const blocked = why(whyNotToggleRole(r, actor));
          const tag = <Tag color={v ? 'success' : 'default'}>{v ? t('status.enabled') : t('status.disabled')}</Tag>;
          if (!can('role:edit')) return tag;
          const sw = (
            <Switch
              size="small"
              checked={toggling[r.id] ?? v}
              loading={r.id in toggling}
              disabled={!!blocked}
              onChange={(on) => toggle(r, on)}
              aria-label={t('role.col.status')}
              checkedChildren={t('status.on')}
              unCheckedChildren={t('status.off')}
              data-testid={`role-status-${r.id}`}
            />
          );
          return blocked ? <Tooltip title={blocked}>{sw}</Tooltip> : sw;
        },
      },
      { key: 'user_count', dataIndex: 'user_count', title: t('role.col.users'), sorter: true, align: 'right', render: (v: number) => formatNumber(v, lang) },
      {
        key: 'created_at',
        dataIndex: 'created_at',
        title: t('role.col.created'),
        sorter: true,
        render: (v: string) => (
          <span className="jur-nowrap">
            <RelativeTime value={v} />
          </span>
        ),
      },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <ActionLinks
            actions={[
              { key: 'edit', sign: 'role:edit', label: t('common:form.edit'), loading: opening === r.id, disabledReason: why(whyNotEditRole(r, actor)), onClick: () => openEdit(r) },
              { key: 'view-as', sign: 'role:view-as', label: t('role.viewAs'), disabledReason: why(whyNotViewAs(r, actor, viewing)), onClick: () => viewAs(r) },
              {
                key: 'delete',
                sign: 'role:delete',
                label: t('common:confirm.delete'),
                danger: true,
                disabledReason: why(whyNotDeleteRole(r, actor), { count: r.user_count }),
                onClick: () => confirmDelete({ name: r.name, onOk: () => del.mutateAsync({ id: r.id }) }),
              },
            ]}
          />
        ),
      },
    ],
    [t, lang, actor, viewing, can, opening, toggling, viewAs, del.mutateAsync, why, toggle, openEdit, confirmDelete],
  );

  return (
    <>
      <ListPage<RoleRow, (typeof FILTERS)[number]>
        listName="jurisdiction.roleList"
        testId="role-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        instant={INSTANT}
        noDataText={t('role.noData')}
        toolbar={
          <CreateButton sign="role:add" onClick={openCreate} testId="role-create">
            {t('role.create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('role.filter.keyword')} placeholder={t('role.filter.keywordPlaceholder')} width={220} />
            <Form.Item name="status" label={t('role.col.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 140 }}
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
      <RoleForm dlg={dlg} />
    </>
  );
}
