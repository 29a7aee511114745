import { useMemo } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { MERIDIANS, type MasterStatus } from '@app/contract/api/meridians';
import type { DiseaseRow, DiseaseTreeNode } from '@app/contract/api/diseases';
import { ListPage, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { useFormModal } from '../../components/FormModal';
import { RowActions } from '../../components/RowActions';
import { useText } from '../../components/l10n-text';
import { useGuardedDelete } from '../../components/guarded-delete';
import { useMeridianName } from '../../components/meridian';
import { useAcupointOptions, useSystemOptions } from '../../components/master-options';
import { useDiseases, useDiseaseTree } from './api';
import { CategoryPanel } from './CategoryPanel';
import { CategoryForm } from './CategoryForm';
import { DiseaseForm } from './DiseaseForm';
import { PATTERN_COLOR, PATTERN_SYMBOL } from './pattern';
import '../../components/master-data.css';
import './diseases.css';

const FILTERS = ['keyword', 'status', 'meridian', 'category_id'] as const;
const INSTANT = ['status', 'meridian'];
const MAX_TAGS = 3;

/** A few tags and "+n" with the rest in a tooltip (`key`: the record id behind the label). */
function TagList({ items, testId }: { items: { key: number; label: string }[]; testId?: string }) {
  if (!items.length) return <span className="text-muted">—</span>;
  const shown = items.slice(0, MAX_TAGS);
  const rest = items.slice(MAX_TAGS);
  return (
    <Space size={[4, 4]} wrap data-testid={testId} style={{ maxWidth: 260 }}>
      {shown.map((s) => (
        <Tag key={s.key} variant="outlined" style={{ marginInlineEnd: 0 }}>
          {s.label}
        </Tag>
      ))}
      {rest.length ? (
        <Tooltip title={rest.map((s) => s.label).join(', ')}>
          <Tag variant="filled">+{rest.length}</Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}

/**
 * /disease/management (grade 0): disease categories on the left (two levels: category -> disease),
 * the diseases of the selected category on the right, with their meridian patterns.
 */
export default function DiseaseManagePage() {
  const { t } = useTranslation('diseases');
  const text = useText();
  const { name: meridianName, label: meridianLabel } = useMeridianName();
  const params = useListParams({ filters: FILTERS });
  const query = useDiseases(params.query);
  const tree = useDiseaseTree();
  const systems = useSystemOptions();
  const acupoints = useAcupointOptions();
  const dlg = useFormModal<DiseaseRow>();
  const catDlg = useFormModal<DiseaseTreeNode>();
  const guardedDelete = useGuardedDelete();
  const selected = params.filters.category_id ? Number(params.filters.category_id) : null;
  const selectedCategory = tree.data?.find((c) => c.id === selected);

  const systemName = useMemo(() => {
    const m = new Map<number, string>();
    for (const b of systems.data ?? []) {
      m.set(b.id, text(b.name));
      for (const c of b.children) m.set(c.id, text(c.name));
    }
    return m;
  }, [systems.data, text]);
  const acupointCode = useMemo(() => new Map((acupoints.data ?? []).map((a) => [a.id, a.code])), [acupoints.data]);

  const columns = useMemo<ColumnsType<DiseaseRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        fixed: 'left',
        render: (_, r) => (
          <span className="disease-name" data-testid={`disease-name-${r.id}`}>
            {text(r.name)}
          </span>
        ),
      },
      ...(selected == null ? [{ key: 'category', title: t('col.category'), render: (_: unknown, r: DiseaseRow) => text(r.category_name) }] : []),
      {
        key: 'pattern',
        dataIndex: 'pattern',
        title: t('col.pattern'),
        render: (_, r) => (
          <Space size={[4, 4]} wrap style={{ maxWidth: 200 }}>
            {r.pattern.map((c) => (
              // A meridian and status appear at most once in a pattern (the contract refuses repeats).
              <Tooltip key={`${c.meridian}:${c.status}`} title={`${meridianName(c.meridian)}: ${t(`status.${c.status}`)}`}>
                <Tag color={PATTERN_COLOR[c.status]} className="pattern-tag">
                  {c.meridian} {PATTERN_SYMBOL[c.status]}
                </Tag>
              </Tooltip>
            ))}
          </Space>
        ),
      },
      {
        key: 'related',
        title: t('col.related'),
        render: (_, r) => (
          <div className="disease-related">
            <TagList items={r.system_ids.map((id) => ({ key: id, label: systemName.get(id) ?? `#${id}` }))} />
            {r.acupoint_ids.length ? (
              <Tooltip title={t('col.acupoints')}>
                <div className="disease-acupoints mono" data-testid={`disease-acupoints-${r.id}`}>
                  {r.acupoint_ids.map((id) => acupointCode.get(id) ?? `#${id}`).join(' · ')}
                </div>
              </Tooltip>
            ) : null}
          </div>
        ),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        render: (v: MasterStatus) => <Tag color={v === 1 ? 'success' : 'default'}>{t(v === 1 ? 'common:status.enabled' : 'common:status.disabled')}</Tag>,
      },
      { key: 'sort', dataIndex: 'sort', title: t('col.sort'), sorter: true, align: 'right' },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'edit', sign: 'disease:edit', label: t('common:form.edit'), onClick: () => dlg.openEdit(r) },
              {
                key: 'delete',
                sign: 'disease:delete',
                label: t('common:confirm.delete'),
                danger: true,
                onClick: () => guardedDelete({ endpoint: 'diseases.remove', id: r.id, name: text(r.name), content: t('deleteText'), invalidate: ['diseases'] }),
              },
            ]}
          />
        ),
      },
    ],
    [t, text, selected, systemName, acupointCode, meridianName, guardedDelete, dlg.openEdit],
  );

  const deleteCategory = (c: DiseaseTreeNode) =>
    guardedDelete({
      endpoint: 'diseases.categoryRemove',
      id: c.id,
      name: text(c.name),
      content: t('category.deleteText'),
      invalidate: ['diseases'],
      onDeleted: () => {
        if (selected === c.id) params.patchFilters({ category_id: null });
      },
    });

  return (
    <div className="disease-layout">
      <CategoryPanel
        categories={tree.data}
        loading={tree.isFetching}
        selected={selected}
        onSelect={(id) => params.patchFilters({ category_id: id })}
        onCreate={catDlg.openCreate}
        onEdit={catDlg.openEdit}
        onDelete={deleteCategory}
      />
      <div className="disease-main">
        <ListPage<DiseaseRow, (typeof FILTERS)[number]>
          listName="diseases.list"
          testId="disease-list"
          title={selectedCategory ? text(selectedCategory.name) : t('allDiseases')}
          params={params}
          query={query}
          columns={columns}
          rowKey="id"
          instant={INSTANT}
          noDataText={t('noData')}
          toolbar={
            <CreateButton sign="disease:add" onClick={dlg.openCreate} disabled={!tree.data?.length} testId="disease-create">
              {t('create')}
            </CreateButton>
          }
          filters={
            <>
              {/* The category chosen on the left travels with the other filters. */}
              <Form.Item name="category_id" hidden>
                <Input />
              </Form.Item>
              <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} width={180} />
              <Form.Item name="meridian" label={t('filter.meridian')}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder={t('common:list.all')}
                  style={{ width: 180 }}
                  options={MERIDIANS.map((m) => ({ value: m, label: meridianLabel(m) }))}
                  data-testid="filter-meridian"
                />
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
      </div>
      <DiseaseForm dlg={dlg} categories={tree.data ?? []} defaultCategory={selected} />
      <CategoryForm dlg={catDlg} onCreated={(id) => params.patchFilters({ category_id: id })} />
    </div>
  );
}
