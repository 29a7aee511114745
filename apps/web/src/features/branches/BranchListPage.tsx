import { useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { APPLICATION_STATES, type ApplicationState, type BranchApplication } from '@app/contract/api/branches';
import { CreateButton, KeywordFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { RegionName } from '../../components/RegionName';
import { RegionFilter, regionFilterCodec } from '../../components/RegionFilter';
import { RowActions } from '../../components/RowActions';
import { useSession } from '../../lib/session';
import { formatDateTime } from '../../lib/time';
import { useApplications } from './api';
import { ApplyForm } from './ApplyForm';
import { ApproveDialog, RejectDialog } from './ReviewDialogs';

const FILTERS = ['keyword', 'state', 'applicant_id', 'region'] as const;
const CODECS = [numberFilter('applicant_id'), regionFilterCodec('region')];
const INSTANT = ['state', 'applicant_id', 'region'];
const STATE_COLOR: Record<ApplicationState, string> = { pending: 'processing', approved: 'success', rejected: 'error' };
const GRADE_KEY: Record<number, string> = { 1: 'grade.1', 2: 'grade.2', 3: 'grade.3' };

/**
 * /institutional/inspection-apply (grades 0-3): branch applications. Institutions file them and follow
 * their state (their own subtree's); the platform approves (the branch and its login are created, the
 * password shown once) or rejects with a reason.
 */
export default function BranchListPage() {
  const { t } = useTranslation('branches');
  const isAdmin = useSession((s) => s.isAdmin);
  const params = useListParams({ filters: FILTERS });
  const query = useApplications(params.query);
  const [applying, setApplying] = useState(false);
  const [approving, setApproving] = useState<BranchApplication | null>(null);
  const [rejecting, setRejecting] = useState<BranchApplication | null>(null);

  const columns = useMemo<ColumnsType<BranchApplication>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (
          <span data-testid={`application-${r.username}`}>
            <Typography.Text strong>{v}</Typography.Text>
            <br />
            <Tag variant="filled">{t(GRADE_KEY[r.branch_grade] ?? 'grade.3')}</Tag>
          </span>
        ),
      },
      { key: 'applicant', dataIndex: 'applicant_name', title: t('col.applicant') },
      { key: 'username', dataIndex: 'username', title: t('col.username'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'contact', title: t('col.contact'), render: (_, r) => `${r.contact_name} ${r.phone}` },
      {
        key: 'region',
        dataIndex: 'region',
        title: t('col.region'),
        render: (v: string[], r) => (
          <span>
            <RegionName codes={v} />
            {r.address ? <div className="text-muted">{r.address}</div> : null}
          </span>
        ),
      },
      {
        key: 'state',
        mobile: 'status',
        dataIndex: 'state',
        title: t('col.state'),
        render: (v: ApplicationState, r) => {
          const tag = (
            <Tag color={STATE_COLOR[v]} data-testid={`state-${r.username}`}>
              {t(`state.${v}`)}
            </Tag>
          );
          return v === 'rejected' && r.reason ? (
            <span>
              {tag}
              <div className="text-muted" style={{ maxWidth: 260, whiteSpace: 'normal' }}>
                {t('col.reason')}: {r.reason}
              </div>
            </span>
          ) : (
            tag
          );
        },
      },
      { key: 'created_at', dataIndex: 'created_at', title: t('col.createdAt'), sorter: true, render: (v: string) => formatDateTime(v) },
      {
        key: 'reviewed_at',
        dataIndex: 'reviewed_at',
        title: t('col.reviewed'),
        sorter: true,
        render: (v: string | null, r) =>
          v ? (
            <Tooltip title={r.reviewed_by}>
              <span>{formatDateTime(v)}</span>
            </Tooltip>
          ) : (
            <span className="text-muted">—</span>
          ),
      },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) =>
          r.state === 'pending' ? (
            <RowActions
              actions={[
                { key: 'approve', sign: 'branch:review', label: t('action.approve'), onClick: () => setApproving(r) },
                { key: 'reject', sign: 'branch:review', label: t('action.reject'), danger: true, onClick: () => setRejecting(r) },
              ]}
            />
          ) : null,
      },
    ],
    [t],
  );

  return (
    <>
      <ListPage<BranchApplication, (typeof FILTERS)[number]>
        listName="branches.list"
        testId="branch-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={isAdmin ? t('noDataAdmin') : t('noData')}
        toolbar={
          // Admins create institutions directly; applications come from institutions.
          isAdmin ? null : (
            <CreateButton sign="branch:apply" onClick={() => setApplying(true)} testId="branch-apply">
              {t('apply')}
            </CreateButton>
          )
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="state" label={t('filter.state')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={APPLICATION_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))} data-testid="filter-state" />
            </Form.Item>
            <Form.Item name="applicant_id" label={t('filter.applicant')}>
              <InstitutionSelect placeholder={t('filter.applicantPlaceholder')} style={{ width: 220 }} data-testid="filter-applicant" />
            </Form.Item>
            <RegionFilter label={t('filter.region')} placeholder={t('filter.regionPlaceholder')} />
          </>
        }
      />
      <ApplyForm open={applying} onClose={() => setApplying(false)} />
      <ApproveDialog application={approving} onClose={() => setApproving(null)} />
      <RejectDialog application={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
