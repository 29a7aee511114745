import { useMemo } from 'react';
import Form from 'antd/es/form';
import Image from 'antd/es/image';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ACUPOINT_MERIDIANS, type AcupointMeridian, type MasterStatus } from '@app/contract/api/meridians';
import type { AcupointRow } from '@app/contract/api/acupoints';
import { ListPage, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { RowActions, type RowAction } from '../../components/RowActions';
import { useAccess, useAccessModel } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useText } from '../../components/l10n-text';
import { useGuardedDelete } from '../../components/guarded-delete';
import { MeridianTag, useMeridianName } from '../../components/meridian';
import { useAcupoints } from './api';
import { AcupointForm } from './AcupointForm';
import '../../components/master-data.css';
import './acupoints.css';

const FILTERS = ['keyword', 'meridian', 'is_measurement_point', 'is_treatment_point', 'status'] as const;
const INSTANT = ['meridian', 'is_measurement_point', 'is_treatment_point', 'status'];

/** /acupoint/management (grade 0): acupoints, their flags and image; treatment actions on a page of their own. */
export default function AcupointListPage() {
  const { t } = useTranslation('acupoints');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const { label: meridianLabel } = useMeridianName();
  const navigate = useNavigate();
  const params = useListParams({ filters: FILTERS });
  const query = useAcupoints(params.query);
  const dlg = useFormModal<AcupointRow>();
  const guardedDelete = useGuardedDelete();
  const { can } = useAccess();
  const model = useAccessModel();
  /** The actions page needs both the button and the (hidden) route. */
  const canActions = can('acupoint:action') && model.pages.some((p) => p.name === 'AcupointAction');

  const yesNo = [
    { value: '1', label: t('common:common.yes') },
    { value: '0', label: t('common:common.no') },
  ];

  const columns = useMemo<ColumnsType<AcupointRow>>(
    () => [
      {
        key: 'image',
        dataIndex: 'image',
        title: t('col.image'),
        width: 72,
        render: (v: string, r) =>
          v ? (
            <Image src={v} width={44} height={44} alt={r.code} className="acupoint-thumb" preview={{ mask: false }} data-testid={`acupoint-thumb-${r.code}`} />
          ) : (
            <span className="acupoint-thumb-empty" aria-hidden>
              <PictureOutlined />
            </span>
          ),
      },
      { key: 'code', mobile: 'title', dataIndex: 'code', title: t('col.code'), sorter: true, fixed: 'left', render: (v: string) => <span className="mono acupoint-code">{v}</span> },
      { key: 'name', mobile: 'field', dataIndex: 'name', title: t('col.name'), render: (_, r) => text(r.name) },
      { key: 'meridian', mobile: 'field', dataIndex: 'meridian', title: t('col.meridian'), sorter: true, render: (v: AcupointMeridian) => <MeridianTag m={v} /> },
      {
        key: 'flags',
        title: t('col.flags'),
        render: (_, r) => (
          <Space size={4} wrap={false}>
            {r.is_measurement_point ? (
              <Tag color="blue" data-testid="flag-measurement">
                {t('flag.measurement')}
              </Tag>
            ) : null}
            {r.is_treatment_point ? (
              <Tag color="green" data-testid="flag-treatment">
                {t('flag.treatment')}
              </Tag>
            ) : null}
            {!r.is_measurement_point && !r.is_treatment_point ? <span className="text-muted">—</span> : null}
          </Space>
        ),
      },
      {
        key: 'action_count',
        mobile: 'field',
        dataIndex: 'action_count',
        title: t('col.actions'),
        align: 'right',
        render: (v: number, r) => (canActions ? <Typography.Link onClick={() => navigate(`/acupoint/action/${r.id}`)}>{formatNumber(v, lang)}</Typography.Link> : formatNumber(v, lang)),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        render: (v: MasterStatus) => <Tag color={v === 1 ? 'success' : 'default'}>{t(v === 1 ? 'common:status.enabled' : 'common:status.disabled')}</Tag>,
      },
      { key: 'sort', dataIndex: 'sort', title: t('col.sort'), sorter: true, align: 'right' },
      {
        key: 'row-actions',
        mobile: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'edit', sign: 'acupoint:edit', label: t('common:form.edit'), onClick: () => dlg.openEdit(r) },
              ...(canActions ? [{ key: 'actions', sign: 'acupoint:action', label: t('action.treatment'), onClick: () => navigate(`/acupoint/action/${r.id}`) } satisfies RowAction] : []),
              {
                key: 'delete',
                sign: 'acupoint:delete',
                label: t('common:confirm.delete'),
                danger: true,
                onClick: () => guardedDelete({ endpoint: 'acupoints.remove', id: r.id, name: `${r.code} ${text(r.name)}`, content: t('deleteText'), invalidate: ['acupoints'] }),
              },
            ]}
          />
        ),
      },
    ],
    [t, lang, text, canActions, navigate, guardedDelete, dlg.openEdit],
  );

  return (
    <>
      <ListPage<AcupointRow, (typeof FILTERS)[number]>
        listName="acupoints.list"
        testId="acupoint-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        instant={INSTANT}
        noDataText={t('noData')}
        toolbar={
          <CreateButton sign="acupoint:add" onClick={dlg.openCreate} testId="acupoint-create">
            {t('create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="meridian" label={t('col.meridian')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('common:list.all')}
                style={{ width: 200 }}
                options={ACUPOINT_MERIDIANS.map((m) => ({ value: m, label: meridianLabel(m) }))}
                data-testid="filter-meridian"
              />
            </Form.Item>
            <Form.Item name="is_measurement_point" label={t('flag.measurement')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 110 }} options={yesNo} data-testid="filter-measurement" />
            </Form.Item>
            <Form.Item name="is_treatment_point" label={t('flag.treatment')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 110 }} options={yesNo} data-testid="filter-treatment" />
            </Form.Item>
            <Form.Item name="status" label={t('col.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 120 }}
                options={[
                  { value: '1', label: t('common:status.enabled') },
                  { value: '0', label: t('common:status.disabled') },
                ]}
                data-testid="filter-status"
              />
            </Form.Item>
          </>
        }
      />
      <AcupointForm dlg={dlg} />
    </>
  );
}
