import { useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRoute } from '@app/contract/routes';
import { GENDERS, type Gender } from '@app/contract/api/person';
import type { UserRow } from '@app/contract/api/users';
import { ListPage, numberFilter, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { useConfirmDelete } from '../../components/confirm';
import { RowActions } from '../../components/RowActions';
import { RelativeTime } from '../../components/RelativeTime';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { useAccess, useAccessModel } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useDeleteUser, useUsers } from './api';
import { UserForm } from './UserForm';
import { UserDetailDrawer } from './UserDetailDrawer';
import { ageFrom } from './person';
import { ExportButton } from '../../components/ExportButton';

/** The inspection list: a person's count opens their history there. */
const INSPECTIONS = findRoute('InspectionList');

const FILTERS = ['keyword', 'gender', 'institution_id'] as const;
const CODECS = [numberFilter('institution_id')];
const INSTANT = ['gender', 'institution_id'];
const GENDER_COLOR: Record<Gender, string> = { male: 'blue', female: 'magenta', other: 'default' };
const muted = (text: string) => <span className="text-muted">{text}</span>;

/** /user/management (grade 0): the people who are inspected. Phone and ID number are masked here. */
export default function UserListPage() {
  const { t } = useTranslation('users');
  const lang = useSettings((s) => s.lang);
  const { can } = useAccess();
  const access = useAccessModel();
  const history = INSPECTIONS && access.canOpen(INSPECTIONS) ? INSPECTIONS.path : null;
  const canView = can('user:detail');
  const params = useListParams({ filters: FILTERS });
  const query = useUsers(params.query);
  const dlg = useFormModal<UserRow>();
  const [viewId, setViewId] = useState<number | null>(null);
  const del = useDeleteUser(t('deleted'));
  const confirmDelete = useConfirmDelete();

  const columns = useMemo<ColumnsType<UserRow>>(() => {
    const unit = (v: number | null, u: 'cm' | 'kg') => (v == null ? muted('—') : t(`unit.${u}`, { v: formatNumber(v, lang) }));
    return [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (canView ? <Typography.Link onClick={() => setViewId(r.id)}>{v}</Typography.Link> : v),
      },
      {
        key: 'gender',
        dataIndex: 'gender',
        title: t('col.gender'),
        render: (v: Gender) => (
          <Tag color={GENDER_COLOR[v]} variant="filled">
            {t(`gender.${v}`)}
          </Tag>
        ),
      },
      {
        key: 'age',
        dataIndex: 'birth_date',
        title: t('col.age'),
        align: 'right',
        render: (v: string | null) => {
          const age = ageFrom(v);
          return age == null ? (
            muted('—')
          ) : (
            <Tooltip title={t('ageTip', { date: v })}>
              <span>{formatNumber(age, lang)}</span>
            </Tooltip>
          );
        },
      },
      {
        // Masked here; the detail drawer (user:detail) shows them in full.
        key: 'contact',
        title: t('col.phoneId'),
        render: (_, r) => (
          <div style={{ lineHeight: 1.4, whiteSpace: 'nowrap' }}>
            <div>
              {r.phone ? (
                <span className="mono" data-testid="user-phone-masked">
                  {r.phone}
                </span>
              ) : (
                muted('—')
              )}
            </div>
            <div style={{ fontSize: 12 }}>
              {r.id_number ? (
                <Typography.Text type="secondary" className="mono" style={{ fontSize: 12 }}>
                  {r.id_number}
                </Typography.Text>
              ) : (
                muted('—')
              )}
            </div>
          </div>
        ),
      },
      {
        key: 'body',
        title: t('col.heightWeight'),
        render: (_, r) =>
          r.height_cm == null && r.weight_kg == null ? (
            muted('—')
          ) : (
            <span style={{ whiteSpace: 'nowrap' }}>
              {unit(r.height_cm, 'cm')} / {unit(r.weight_kg, 'kg')}
            </span>
          ),
      },
      { key: 'institution', dataIndex: 'institution_name', title: t('col.institution'), width: 170, ellipsis: { showTitle: true }, render: (v: string | null) => v ?? muted('—') },
      {
        // The count links to the person's inspection history (the inspection list filtered on the person).
        key: 'inspection_count',
        dataIndex: 'inspection_count',
        title: t('col.inspections'),
        sorter: true,
        align: 'right',
        render: (v: number, r) =>
          history && v > 0 ? (
            <Link to={`${history}?user_id=${r.id}`} data-testid="user-inspections">
              {formatNumber(v, lang)}
            </Link>
          ) : (
            <span data-testid="user-inspections">{formatNumber(v, lang)}</span>
          ),
      },
      { key: 'last_inspection_at', dataIndex: 'last_inspection_at', title: t('col.lastInspection'), sorter: true, render: (v: string | null) => <RelativeTime value={v} placeholder={t('never')} /> },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'view', sign: 'user:detail', label: t('action.view'), onClick: () => setViewId(r.id) },
              { key: 'edit', sign: 'user:edit', label: t('action.edit'), onClick: () => dlg.openEdit(r) },
              {
                key: 'delete',
                sign: 'user:delete',
                label: t('action.delete'),
                danger: true,
                onClick: () => confirmDelete({ name: r.name, content: t('deleteText'), onOk: () => del.mutateAsync({ id: r.id }) }),
              },
            ]}
          />
        ),
      },
    ];
  }, [t, lang, canView, dlg.openEdit, del.mutateAsync, confirmDelete, history]);

  return (
    <>
      <ListPage<UserRow, (typeof FILTERS)[number]>
        listName="users.list"
        testId="user-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('noData')}
        toolbar={
          <>
            <CreateButton sign="user:add" onClick={dlg.openCreate} testId="user-create">
              {t('create')}
            </CreateButton>
            <ExportButton endpoint="users.exportList" sign="user:export" query={params.query} filename="users" testId="users-export" />
          </>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} width={220} />
            <Form.Item name="gender" label={t('filter.gender')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 120 }} options={GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`) }))} data-testid="filter-gender" />
            </Form.Item>
            <Form.Item name="institution_id" label={t('filter.institution')}>
              <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
            </Form.Item>
          </>
        }
      />
      {canView ? (
        <UserDetailDrawer
          id={viewId}
          onClose={() => setViewId(null)}
          onEdit={(u) => {
            setViewId(null);
            dlg.openEdit(query.data?.list.find((r) => r.id === u.id) ?? u);
          }}
        />
      ) : null}
      <UserForm dlg={dlg} />
    </>
  );
}
