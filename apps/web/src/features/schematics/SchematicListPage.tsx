import { useCallback, useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SCHEMATIC_KINDS, type SchematicDetail, type SchematicKind, type SchematicRow } from '@app/contract/api/schematics';
import { ListPage, numberFilter, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { RowActions } from '../../components/RowActions';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useText } from '../../components/l10n-text';
import { useGuardedDelete } from '../../components/guarded-delete';
import { useAcupointOptions } from '../../components/master-options';
import { fetchSchematicDetail, useSchematics } from './api';
import { SchematicForm } from './SchematicForm';
import { SchematicPreview } from './SchematicPreview';
import { KIND_COLOR } from './kinds';
import '../../components/master-data.css';
import './schematics.css';

const FILTERS = ['keyword', 'kind', 'acupoint_id'] as const;
const CODECS = [numberFilter('acupoint_id')];
const INSTANT = ['kind', 'acupoint_id'];

/** /schematic/management (grade 0): diagrams with acupoint markers, used by inspection reports. */
export default function SchematicListPage() {
  const { t } = useTranslation('schematics');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const qc = useQueryClient();
  const params = useListParams({ filters: FILTERS });
  const query = useSchematics(params.query);
  const acupoints = useAcupointOptions();
  const dlg = useFormModal<SchematicDetail>();
  const [previewId, setPreviewId] = useState<number | null>(null);
  const guardedDelete = useGuardedDelete();

  const openEdit = useCallback(
    (id: number) =>
      fetchSchematicDetail(qc, id).then(dlg.openEdit, () => {
        /* the client already said why */
      }),
    [qc, dlg.openEdit],
  );

  const columns = useMemo<ColumnsType<SchematicRow>>(
    () => [
      {
        key: 'image',
        dataIndex: 'image',
        title: t('col.image'),
        width: 92,
        render: (v: string, r) => (
          <button type="button" className="schematic-thumb" onClick={() => setPreviewId(r.id)} aria-label={`${t('action.preview')} ${text(r.title)}`} data-testid={`schematic-thumb-${r.id}`}>
            <img src={v} alt="" loading="lazy" />
          </button>
        ),
      },
      {
        key: 'title',
        mobile: 'title',
        dataIndex: 'title',
        title: t('col.title'),
        render: (_, r) => (
          <Typography.Link onClick={() => setPreviewId(r.id)} data-testid={`schematic-title-${r.id}`}>
            {text(r.title)}
          </Typography.Link>
        ),
      },
      { key: 'kind', mobile: 'field', dataIndex: 'kind', title: t('col.kind'), sorter: true, render: (v: SchematicKind) => <Tag color={KIND_COLOR[v]}>{t(`kind.${v}`)}</Tag> },
      { key: 'marker_count', mobile: 'field', dataIndex: 'marker_count', title: t('col.markers'), align: 'right', render: (v: number) => formatNumber(v, lang) },
      {
        key: 'size',
        title: t('col.size'),
        render: (_, r) => (
          <span className="master-dim">
            {formatNumber(r.width, lang)} × {formatNumber(r.height, lang)}
          </span>
        ),
      },
      { key: 'sort', dataIndex: 'sort', title: t('col.sort'), sorter: true, align: 'right' },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'preview', label: t('action.preview'), onClick: () => setPreviewId(r.id) },
              {
                key: 'edit',
                sign: 'schematic:edit',
                label: t('common:form.edit'),
                onClick: () => {
                  void openEdit(r.id);
                },
              },
              {
                key: 'delete',
                sign: 'schematic:delete',
                label: t('common:confirm.delete'),
                danger: true,
                onClick: () => guardedDelete({ endpoint: 'schematics.remove', id: r.id, name: text(r.title), content: t('deleteText'), invalidate: ['schematics'] }),
              },
            ]}
          />
        ),
      },
    ],
    [t, lang, text, openEdit, guardedDelete],
  );

  return (
    <>
      <ListPage<SchematicRow, (typeof FILTERS)[number]>
        listName="schematics.list"
        testId="schematic-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('noData')}
        toolbar={
          <CreateButton sign="schematic:add" onClick={dlg.openCreate} testId="schematic-create">
            {t('create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="kind" label={t('col.kind')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 180 }} options={SCHEMATIC_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="filter-kind" />
            </Form.Item>
            <Form.Item name="acupoint_id" label={t('filter.acupoint')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('filter.acupointPlaceholder')}
                style={{ width: 220 }}
                loading={acupoints.isFetching}
                options={(acupoints.data ?? []).map((a) => ({ value: a.id, label: `${a.code} · ${text(a.name)}` }))}
                data-testid="filter-acupoint"
              />
            </Form.Item>
          </>
        }
      />
      <SchematicForm dlg={dlg} />
      <SchematicPreview
        id={previewId}
        onClose={() => setPreviewId(null)}
        onEdit={(d) => {
          setPreviewId(null);
          dlg.openEdit(d);
        }}
      />
    </>
  );
}
