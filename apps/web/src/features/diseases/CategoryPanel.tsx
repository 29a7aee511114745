/** The left panel: disease categories (GET /disease/tree) with their disease counts; select one to list its diseases. */
import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import Tooltip from 'antd/es/tooltip';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import FolderOutlined from '@ant-design/icons/es/icons/FolderOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import { useTranslation } from 'react-i18next';
import type { DiseaseTreeNode } from '@app/contract/api/diseases';
import { Access } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useText } from '../../components/l10n-text';

export interface CategoryPanelProps {
  categories: DiseaseTreeNode[] | undefined;
  loading: boolean;
  selected: number | null;
  onSelect: (id: number | null) => void;
  onCreate: () => void;
  onEdit: (c: DiseaseTreeNode) => void;
  onDelete: (c: DiseaseTreeNode) => void;
}

export function CategoryPanel({ categories, loading, selected, onSelect, onCreate, onEdit, onDelete }: CategoryPanelProps) {
  const { t } = useTranslation('diseases');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const total = (categories ?? []).reduce((s, c) => s + c.children.length, 0);

  const item = (id: number | null, name: string, count: number, icon: ReactNode, c?: DiseaseTreeNode) => (
    <li key={id ?? 'all'} className={`category-item${selected === id ? ' is-selected' : ''}`}>
      <button type="button" className="category-select" onClick={() => onSelect(id)} aria-current={selected === id ? 'true' : undefined} data-testid={id == null ? 'category-all' : `category-${id}`}>
        <span className="category-icon" aria-hidden>
          {icon}
        </span>
        <span className="category-name">{name}</span>
        <span className="category-count">{formatNumber(count, lang)}</span>
      </button>
      {c ? (
        <span className="category-ops">
          <Access sign="disease:edit">
            <Tooltip title={t('category.edit')}>
              <Button type="text" size="small" icon={<EditOutlined />} onClick={() => onEdit(c)} aria-label={`${t('category.edit')} ${name}`} data-testid={`category-edit-${c.id}`} />
            </Tooltip>
          </Access>
          <Access sign="disease:delete">
            <Tooltip title={t('category.delete')}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => onDelete(c)} aria-label={`${t('category.delete')} ${name}`} data-testid={`category-delete-${c.id}`} />
            </Tooltip>
          </Access>
        </span>
      ) : null}
    </li>
  );

  return (
    <section className="list-panel category-panel" aria-label={t('category.title')} data-testid="category-panel">
      <header className="category-head">
        <span className="list-title">{t('category.title')}</span>
        <Access sign="disease:add">
          <Tooltip title={t('category.create')}>
            <Button size="small" icon={<PlusOutlined />} onClick={onCreate} aria-label={t('category.create')} data-testid="category-create">
              {t('category.add')}
            </Button>
          </Tooltip>
        </Access>
      </header>
      {loading && !categories ? (
        <div style={{ padding: 16 }}>
          <Skeleton active title={false} paragraph={{ rows: 6 }} />
        </div>
      ) : (
        <ul className="category-list">
          {item(null, t('category.all'), total, <AppstoreOutlined />)}
          {(categories ?? []).map((c) => item(c.id, text(c.name), c.children.length, <FolderOutlined />, c))}
          {categories && !categories.length ? <li className="category-empty">{t('category.none')}</li> : null}
        </ul>
      )}
    </section>
  );
}
