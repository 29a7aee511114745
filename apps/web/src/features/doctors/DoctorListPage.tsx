import { useCallback, useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRoute } from '@app/contract/routes';
import { DOCTOR_STATUSES, type DoctorDetail, type DoctorRow, type DoctorStatus } from '@app/contract/api/doctors';
import type { Gender } from '@app/contract/api/person';
import { ListPage, numberFilter, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { useConfirmDelete } from '../../components/confirm';
import { RowActions } from '../../components/RowActions';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { useAccessModel } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { useSettings } from '../../lib/settings';
import { fetchDoctorDetail, useDeleteDoctor, useDoctors } from './api';
import { DoctorForm } from './DoctorForm';
import { DoctorDetailDrawer } from './DoctorDetailDrawer';
import { ExportButton } from '../../components/ExportButton';

/** The inspection list: a doctor's count opens the inspections they performed. */
const INSPECTIONS = findRoute('InspectionList');

const FILTERS = ['keyword', 'institution_id', 'status'] as const;
const CODECS = [numberFilter('institution_id')];
const INSTANT = ['institution_id', 'status'];
const GENDER_COLOR: Record<Gender, string> = { male: 'blue', female: 'magenta', other: 'default' };

/** /searchers/management (grade 0): the doctors who operate devices at the institutions. */
export default function DoctorListPage() {
  const { t } = useTranslation('doctors');
  const lang = useSettings((s) => s.lang);
  const access = useAccessModel();
  const history = INSPECTIONS && access.canOpen(INSPECTIONS) ? INSPECTIONS.path : null;
  const qc = useQueryClient();
  const params = useListParams({ filters: FILTERS });
  const query = useDoctors(params.query);
  const dlg = useFormModal<DoctorDetail>();
  const [viewId, setViewId] = useState<number | null>(null);
  const del = useDeleteDoctor(t('deleted'));
  const confirmDelete = useConfirmDelete();

  /** The list masks phones: edit starts from the detail, which has the full number. */
  const openEdit = useCallback(
    (id: number) =>
      fetchDoctorDetail(qc, id).then(dlg.openEdit, () => {
        /* the client already said why */
      }),
    [qc, dlg.openEdit],
  );

  const columns = useMemo<ColumnsType<DoctorRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (
          <Typography.Link onClick={() => setViewId(r.id)} data-testid={`doctor-name-${r.id}`}>
            {v}
          </Typography.Link>
        ),
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
        key: 'phone',
        dataIndex: 'phone',
        title: t('col.phone'),
        render: (v: string) => (
          <span className="mono" data-testid="doctor-phone-masked">
            {v}
          </span>
        ),
      },
      { key: 'title', dataIndex: 'title', title: t('col.jobTitle'), render: (v: string) => v || <span className="text-muted">—</span> },
      { key: 'institution', dataIndex: 'institution_name', title: t('col.institution'), render: (v: string | null) => v ?? <span className="text-muted">—</span> },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        sorter: true,
        render: (v: DoctorStatus) => <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>,
      },
      {
        key: 'inspection_count',
        dataIndex: 'inspection_count',
        title: t('col.inspections'),
        sorter: true,
        align: 'right',
        // The count links to the inspections the doctor performed.
        render: (v: number, r) =>
          history && v > 0 ? (
            <Link to={`${history}?doctor_id=${r.id}`} data-testid="doctor-inspections">
              {formatNumber(v, lang)}
            </Link>
          ) : (
            formatNumber(v, lang)
          ),
      },
      { key: 'created_at', dataIndex: 'created_at', title: t('col.createdAt'), sorter: true, render: (v: string) => formatDateTime(v) },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'view', label: t('action.view'), onClick: () => setViewId(r.id) },
              {
                key: 'edit',
                sign: 'doctor:edit',
                label: t('action.edit'),
                onClick: () => {
                  void openEdit(r.id);
                },
              },
              {
                key: 'delete',
                sign: 'doctor:delete',
                label: t('action.delete'),
                danger: true,
                onClick: () => confirmDelete({ name: r.name, content: t('deleteText'), onOk: () => del.mutateAsync({ id: r.id }) }),
              },
            ]}
          />
        ),
      },
    ],
    [t, lang, openEdit, del.mutateAsync, confirmDelete, history],
  );

  return (
    <>
      <ListPage<DoctorRow, (typeof FILTERS)[number]>
        listName="doctors.list"
        testId="doctor-list"
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
            <CreateButton sign="doctor:add" onClick={dlg.openCreate} testId="doctor-create">
              {t('create')}
            </CreateButton>
            <ExportButton endpoint="doctors.exportList" sign="doctor:export" query={params.query} filename="doctors" testId="doctors-export" />
          </>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="institution_id" label={t('filter.institution')}>
              <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
            </Form.Item>
            <Form.Item name="status" label={t('filter.status')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={DOCTOR_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} data-testid="filter-status" />
            </Form.Item>
          </>
        }
      />
      <DoctorDetailDrawer
        id={viewId}
        onClose={() => setViewId(null)}
        onEdit={(d) => {
          setViewId(null);
          dlg.openEdit(d);
        }}
      />
      <DoctorForm dlg={dlg} />
    </>
  );
}
