import { useCallback, useMemo, useState, type Key } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CODE_SCOPES, CODE_STATUSES, type CodeBatchRow, type CodeRow, type CodeScope, type CodeStatus } from '@app/contract/api/codes';
import { BulkBar, CreateButton, KeywordFilter, ListPage, numberFilter, useBulkReport, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { RowActions } from '../../components/RowActions';
import { useAccess } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { formatDateTime } from '../../lib/time';
import { useBulkVoidCodes, useCodeBatches, useCodes, useRecentBatches, useVoidCodes } from './api';
import { AssignDialog } from './AssignDialog';
import { downloadFile } from '../../lib/download';
import { GenerateDialog } from './GenerateDialog';
import { ExportButton } from '../../components/ExportButton';

export const SCOPE_COLOR: Record<CodeScope, string> = { institution: 'purple', device: 'blue' };
const STATUS_COLOR: Record<CodeStatus, string> = { unused: 'success', used: 'processing', void: 'default', expired: 'warning' };

type View = 'batches' | 'codes';

/**
 * /activation-code/index (grade 0, by address and by links; in no menu): batches (generate, export,
 * assign, void) and the codes themselves, masked. The view is in the URL (`view=codes`), with the
 * list's own filters.
 */
export default function ActivationCodePage() {
  const { t } = useTranslation('codes');
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'codes' ? 'codes' : 'batches';
  const [generating, setGenerating] = useState(false);
  const show = (next: View, filters: Record<string, string> = {}) => setParams(next === 'batches' ? {} : { view: 'codes', ...filters });

  return (
    <Flex vertical gap={16} data-testid="activation-code-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Segmented<View>
          value={view}
          onChange={(v) => show(v)}
          options={[
            { value: 'batches', label: t('view.batches') },
            { value: 'codes', label: t('view.codes') },
          ]}
          data-testid="code-view"
        />
        <CreateButton sign="activation:generate" onClick={() => setGenerating(true)} testId="code-generate-open">
          {t('generate.button')}
        </CreateButton>
      </Flex>
      {view === 'batches' ? <BatchList onCodes={(b) => show('codes', { batch_id: String(b.id) })} /> : <CodeList />}
      <GenerateDialog open={generating} onClose={() => setGenerating(false)} />
    </Flex>
  );
}

/** What a batch's (or a code's) codes grant: days, or a package's name. */
function useGrantText() {
  const { t } = useTranslation('codes');
  return useCallback((days: number | null, packageName: string | null) => (days != null ? t('days', { n: days }) : (packageName ?? '—')), [t]);
}

const BATCH_FILTERS = ['keyword', 'scope', 'owner_institution_id'] as const;

function BatchList({ onCodes }: { onCodes: (b: CodeBatchRow) => void }) {
  const { t } = useTranslation('codes');
  const lang = useSettings((s) => s.lang);
  const { modal, message } = App.useApp();
  const params = useListParams({ filters: BATCH_FILTERS });
  const query = useCodeBatches(params.query);
  const voidCodes = useVoidCodes();
  const grantText = useGrantText();
  const [assigning, setAssigning] = useState<CodeBatchRow | null>(null);

  const columns = useMemo<ColumnsType<CodeBatchRow>>(
    () => [
      {
        key: 'batch_no',
        dataIndex: 'batch_no',
        title: t('col.batchNo'),
        fixed: 'left',
        render: (v: string, r) => (
          <Typography.Link className="mono" onClick={() => onCodes(r)} data-testid={`batch-${v}`}>
            {v}
          </Typography.Link>
        ),
      },
      { key: 'scope', dataIndex: 'scope', title: t('col.scope'), render: (v: CodeScope) => <Tag color={SCOPE_COLOR[v]}>{t(`scope.${v}`)}</Tag> },
      { key: 'grant', title: t('col.grant'), render: (_, r) => grantText(r.days, r.package_name) },
      { key: 'count', dataIndex: 'count', title: t('col.count'), sorter: true, align: 'right', render: (v: number) => formatNumber(v, lang) },
      {
        key: 'states',
        title: t('col.states'),
        render: (_, r) => (
          <Space size={4} wrap={false} data-testid={`batch-states-${r.batch_no}`}>
            <Tag color={STATUS_COLOR.unused}>{formatNumber(r.unused, lang)}</Tag>
            <Tag color={STATUS_COLOR.used}>{formatNumber(r.used, lang)}</Tag>
            <Tag color={STATUS_COLOR.void}>{formatNumber(r.void, lang)}</Tag>
            <Tag color={STATUS_COLOR.expired}>{formatNumber(r.expired, lang)}</Tag>
          </Space>
        ),
      },
      { key: 'owner', title: t('col.owner'), render: (_, r) => r.owner_institution_name ?? <span className="text-muted">{t('platform')}</span> },
      { key: 'valid_until', dataIndex: 'valid_until', title: t('col.validUntil'), render: (v: string | null) => (v ? formatDateTime(v) : <span className="text-muted">{t('never')}</span>) },
      {
        key: 'remark',
        dataIndex: 'remark',
        title: t('col.remark'),
        render: (v: string) => (
          <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>
            {v}
          </Typography.Text>
        ),
      },
      { key: 'created_at', dataIndex: 'created_at', title: t('col.createdAt'), sorter: true, render: (v: string, r) => `${formatDateTime(v)} · ${r.created_by}` },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => {
          const voidable = r.unused + r.expired;
          return (
            <RowActions
              actions={[
                { key: 'codes', label: t('action.codes'), onClick: () => onCodes(r) },
                {
                  key: 'export-csv',
                  sign: 'activation:export',
                  label: <Tooltip title={t('exportHint')}>{`${t('action.export')} ${t('action.exportCsv')}`}</Tooltip>,
                  onClick: () => void downloadFile('codes.exportBatch', { id: r.id, format: 'csv' }, `${r.batch_no}.csv`),
                },
                {
                  key: 'export-xlsx',
                  sign: 'activation:export',
                  label: t('action.exportXlsx'),
                  onClick: () => void downloadFile('codes.exportBatch', { id: r.id, format: 'xlsx' }, `${r.batch_no}.xlsx`),
                },
                { key: 'assign', sign: 'activation:assign', label: t('action.assign'), disabled: voidable === 0, onClick: () => setAssigning(r) },
                {
                  key: 'void',
                  sign: 'activation:void',
                  label: t('action.void'),
                  danger: true,
                  disabled: voidable === 0,
                  onClick: () =>
                    modal.confirm({
                      title: t('voidConfirm.title', { n: voidable, batch: r.batch_no }),
                      content: t('voidConfirm.text'),
                      okText: t('voidConfirm.ok'),
                      okButtonProps: { danger: true, 'data-testid': 'code-void-ok' } as never,
                      cancelText: t('common:form.cancel'),
                      onOk: async () => {
                        const { count } = await voidCodes.mutateAsync({ id: r.id });
                        void message.success(t('voidConfirm.done', { n: count }));
                      },
                    }),
                },
              ]}
            />
          );
        },
      },
    ],
    [t, lang, onCodes, grantText, modal, message, voidCodes.mutateAsync],
  );

  return (
    <>
      <ListPage<CodeBatchRow, (typeof BATCH_FILTERS)[number]>
        listName="codes.batches"
        testId="code-batch-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={[numberFilter('owner_institution_id')]}
        instant={['scope', 'owner_institution_id']}
        noDataText={t('noBatches')}
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="scope" label={t('filter.scope')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={CODE_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))} data-testid="filter-scope" />
            </Form.Item>
            <Form.Item name="owner_institution_id" label={t('filter.owner')}>
              <InstitutionSelect placeholder={t('filter.ownerPlaceholder')} style={{ width: 220 }} data-testid="filter-owner" />
            </Form.Item>
          </>
        }
      />
      <AssignDialog batch={assigning} onClose={() => setAssigning(null)} />
    </>
  );
}

const CODE_FILTERS = ['batch_id', 'scope', 'status', 'owner_institution_id'] as const;

function CodeList() {
  const { t } = useTranslation('codes');
  const lang = useSettings((s) => s.lang);
  const { modal } = App.useApp();
  const { can } = useAccess();
  const params = useListParams({ filters: CODE_FILTERS });
  const query = useCodes(params.query);
  const batches = useRecentBatches();
  const bulkVoid = useBulkVoidCodes();
  const report = useBulkReport();
  const grantText = useGrantText();
  const [selected, setSelected] = useState<CodeRow[]>([]);

  const columns = useMemo<ColumnsType<CodeRow>>(
    () => [
      { key: 'code', dataIndex: 'code', title: t('col.code'), fixed: 'left', render: (v: string) => <span className="mono">{v}</span> },
      { key: 'batch_no', dataIndex: 'batch_no', title: t('col.batchNo'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'scope', dataIndex: 'scope', title: t('col.scope'), render: (v: CodeScope) => <Tag color={SCOPE_COLOR[v]}>{t(`scope.${v}`)}</Tag> },
      { key: 'grant', title: t('col.grant'), render: (_, r) => grantText(r.days, r.package_name) },
      { key: 'status', dataIndex: 'status', title: t('col.status'), render: (v: CodeStatus) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag> },
      { key: 'owner', title: t('col.owner'), render: (_, r) => r.owner_institution_name ?? <span className="text-muted">{t('platform')}</span> },
      {
        key: 'valid_until',
        dataIndex: 'valid_until',
        title: t('col.validUntil'),
        sorter: true,
        render: (v: string | null) => (v ? formatDateTime(v) : <span className="text-muted">{t('never')}</span>),
      },
      {
        key: 'used_by',
        title: t('col.usedBy'),
        render: (_, r) =>
          r.used_by_device_serial ? (
            <span>
              <span className="mono">{r.used_by_device_serial}</span> · {r.used_by_institution_name}
            </span>
          ) : (
            (r.used_by_institution_name ?? '—')
          ),
      },
      { key: 'used_at', dataIndex: 'used_at', title: t('col.usedAt'), sorter: true, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
      { key: 'created_at', dataIndex: 'created_at', title: t('col.createdAt'), sorter: true, render: (v: string) => formatDateTime(v) },
    ],
    [t, grantText],
  );

  // Per row on the server (codes.bulkVoid): each code by the single void's own rule; the refused ones are named.
  const voidSelected = () => {
    modal.confirm({
      title: t('voidConfirm.titleSelected', { n: selected.length }),
      content: t('voidConfirm.text'),
      okText: t('voidConfirm.ok'),
      okButtonProps: { danger: true, 'data-testid': 'code-void-ok' } as never,
      cancelText: t('common:form.cancel'),
      onOk: async () => {
        const answer = await bulkVoid.mutateAsync({ ids: selected.map((r) => r.id) });
        setSelected([]);
        report(t('voidConfirm.ok'), answer);
      },
    });
  };

  return (
    <ListPage<CodeRow, (typeof CODE_FILTERS)[number]>
      listName="codes.list"
      testId="code-list"
      params={params}
      query={query}
      columns={columns}
      rowKey="id"
      codecs={[numberFilter('batch_id'), numberFilter('owner_institution_id')]}
      instant={['batch_id', 'scope', 'status', 'owner_institution_id']}
      noDataText={t('noCodes')}
      tableProps={
        can('activation:void')
          ? {
              rowSelection: {
                selectedRowKeys: selected.map((r) => r.id) as Key[],
                onChange: (_, rows) => setSelected(rows),
                getCheckboxProps: (r) => ({ disabled: r.status !== 'unused' && r.status !== 'expired' }),
              },
            }
          : undefined
      }
      bulk={
        <BulkBar count={selected.length} onClear={() => setSelected([])}>
          <Button danger onClick={voidSelected} data-testid="code-void-selected">
            {t('action.voidSelected', { n: formatNumber(selected.length, lang) })}
          </Button>
        </BulkBar>
      }
      toolbar={<ExportButton endpoint="codes.exportList" sign="activation:export" query={params.query} filename="activation-codes" testId="codes-export" />}
      filters={
        <>
          <Form.Item name="batch_id" label={t('filter.batch')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('filter.batchPlaceholder')}
              style={{ width: 200 }}
              loading={batches.isFetching}
              options={(batches.data?.list ?? []).map((b) => ({ value: b.id, label: b.batch_no }))}
              data-testid="filter-batch"
            />
          </Form.Item>
          <Form.Item name="scope" label={t('filter.scope')}>
            <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={CODE_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))} data-testid="filter-scope" />
          </Form.Item>
          <Form.Item name="status" label={t('filter.status')}>
            <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={CODE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} data-testid="filter-status" />
          </Form.Item>
          <Form.Item name="owner_institution_id" label={t('filter.owner')}>
            <InstitutionSelect placeholder={t('filter.ownerPlaceholder')} style={{ width: 220 }} data-testid="filter-owner" />
          </Form.Item>
        </>
      }
    />
  );
}
