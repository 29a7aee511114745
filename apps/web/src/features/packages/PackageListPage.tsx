import { useMemo } from 'react';
import App from 'antd/es/app';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { PACKAGE_KINDS, PACKAGE_STATUSES, type PackageKind, type PackageRow, type PackageStatus } from '@app/contract/api/packages';
import { ListPage, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { useConfirmDelete } from '../../components/confirm';
import { RowActions } from '../../components/RowActions';
import { Money } from '../../components/Money';
import { Access } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useDeletePackage, usePackages, useSetPackageStatus } from './api';
import { PackageForm, type PackageFormValues } from './PackageForm';
import { formatBp } from './units';

const FILTERS = ['keyword', 'kind', 'status'] as const;
const INSTANT = ['kind', 'status'];
const KIND_COLOR: Record<PackageKind, string> = { count: 'blue', time: 'purple' };

/** /package-manage/index (grade 0): what end users can buy on a device. */
export default function PackageListPage() {
  const { t } = useTranslation('packages');
  const lang = useSettings((s) => s.lang);
  const { message } = App.useApp();
  const params = useListParams({ filters: FILTERS });
  const query = usePackages(params.query);
  const dlg = useFormModal<PackageRow>();
  const [form] = Form.useForm<PackageFormValues>();
  const setStatus = useSetPackageStatus();
  const del = useDeletePackage(t('deleted'));
  const confirmDelete = useConfirmDelete();

  const columns = useMemo<ColumnsType<PackageRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        sorter: true,
        fixed: 'left',
        width: 240,
        render: (name: string, r) => (
          <div style={{ maxWidth: 240 }}>
            <Typography.Text strong>{name}</Typography.Text>
            {r.description ? (
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 1, tooltip: r.description }} style={{ margin: 0, fontSize: 12 }}>
                {r.description}
              </Typography.Paragraph>
            ) : null}
          </div>
        ),
      },
      { key: 'kind', dataIndex: 'kind', title: t('col.kind'), render: (v: PackageKind) => <Tag color={KIND_COLOR[v]}>{t(`kind.${v}`)}</Tag> },
      {
        key: 'quantity',
        title: t('col.quantity'),
        render: (_, r) => (r.kind === 'count' ? t('quantity.count', { n: formatNumber(r.uses ?? 0, lang) }) : t('quantity.time', { n: formatNumber(r.days ?? 0, lang) })),
      },
      { key: 'price', dataIndex: 'price_cents', title: t('col.price'), sorter: true, align: 'right', render: (v: number) => <Money cents={v} /> },
      {
        key: 'commission',
        title: (
          <Tooltip title={t('rateHelp')}>
            <span>{t('col.commission')}</span>
          </Tooltip>
        ),
        align: 'center',
        children: [
          { key: 'rate_l1', dataIndex: 'commission_rate_l1_bp', title: t('col.rateL1'), align: 'right', render: (v: number) => formatBp(v, lang) },
          { key: 'rate_l2', dataIndex: 'commission_rate_l2_bp', title: t('col.rateL2'), align: 'right', render: (v: number) => formatBp(v, lang) },
        ],
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        // The switch needs package:edit (POST /package/set_status); without it the status is a tag.
        render: (v: PackageStatus, r) => (
          <Access sign="package:edit" fallback={<Tag color={v === 'on_sale' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>}>
            <Switch
              checked={v === 'on_sale'}
              checkedChildren={t('status.on_sale')}
              unCheckedChildren={t('status.off_sale')}
              loading={setStatus.isPending && setStatus.variables?.id === r.id}
              aria-label={`${r.name}: ${t('col.status')}`}
              data-testid={`package-status-${r.id}`}
              onChange={(on) => {
                const status: PackageStatus = on ? 'on_sale' : 'off_sale';
                setStatus.mutate(
                  { id: r.id, status },
                  {
                    onSuccess: () => {
                      void message.success(t(`statusChanged.${status}`));
                    },
                  },
                );
              }}
            />
          </Access>
        ),
      },
      { key: 'sort', dataIndex: 'sort_order', title: t('col.sortOrder'), sorter: true, align: 'right', render: (v: number) => formatNumber(v, lang) },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'edit', sign: 'package:edit', label: t('action.edit'), onClick: () => dlg.openEdit(r) },
              {
                key: 'delete',
                sign: 'package:delete',
                label: t('action.delete'),
                danger: true,
                onClick: () => {
                  if (r.status === 'on_sale') {
                    void message.warning(t('deleteOnSale'));
                    return;
                  }
                  confirmDelete({ name: r.name, onOk: () => del.mutateAsync({ id: r.id }) });
                },
              },
            ]}
          />
        ),
      },
    ],
    [t, lang, setStatus.isPending, setStatus.variables, message.warning, del.mutateAsync, setStatus.mutate, message.success, dlg.openEdit, confirmDelete],
  );

  return (
    <>
      <ListPage<PackageRow, (typeof FILTERS)[number]>
        listName="packages.list"
        testId="package-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        instant={INSTANT}
        noDataText={t('noData')}
        toolbar={
          <CreateButton sign="package:add" onClick={dlg.openCreate} testId="package-create">
            {t('create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="kind" label={t('filter.kind')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={PACKAGE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="filter-kind" />
            </Form.Item>
            <Form.Item name="status" label={t('filter.status')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={PACKAGE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} data-testid="filter-status" />
            </Form.Item>
          </>
        }
      />
      <PackageForm dlg={dlg} form={form} />
    </>
  );
}
