/**
 * A list's filters on a small screen (below 992 px): a "Filters" button showing how many are set, which
 * opens the filter form in a drawer (full screen on a phone), one field a line, with the list's sort
 * order (a phone's cards have no column headers to sort by).
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import FilterOutlined from '@ant-design/icons/es/icons/FilterOutlined';
import { useTranslation } from 'react-i18next';
import type { ListParams, SortOrder } from './useListParams';
import { FilterBar } from './FilterBar';
import { activeFilterCount, type FilterCodec } from './codecs';
import type { ColumnsType } from 'antd/es/table';
import { useIsPhone } from '../../lib/media';
import './mobile.css';

export interface SortOption {
  key: string;
  label: ReactNode;
}

export function FilterDrawer<F extends string>({
  params,
  names,
  codecs,
  instant,
  children,
  sortOptions,
}: {
  params: ListParams<F>;
  names?: readonly F[];
  codecs?: FilterCodec[];
  instant?: readonly string[];
  children?: ReactNode;
  /** The list's sortable columns: offered as "Sort by" in the drawer on a phone. */
  sortOptions?: SortOption[];
}) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(params as ListParams<string>, names, codecs);
  const sortId = useId();
  const sorting = isPhone && sortOptions?.length ? sortOptions : undefined;
  const sortValue = params.sort && params.order ? `${params.sort}:${params.order}` : '';
  const options = useMemo(
    () => [
      { value: '', label: t('phone.sortDefault') },
      ...(sorting ?? []).flatMap((o) => [
        { value: `${o.key}:ascend`, label: t('phone.sortAscend', { field: textOf(o.label) }) },
        { value: `${o.key}:descend`, label: t('phone.sortDescend', { field: textOf(o.label) }) },
      ]),
    ],
    [sorting, t],
  );
  const label = count ? t('phone.filtersActive', { count }) : t('list.filters');
  if (!children && !sorting) return null;
  return (
    <>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button icon={<FilterOutlined />} aria-label={label} aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)} data-testid="filters-button">
          {t('list.filters')}
        </Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('list.filters')} placement="right" size={isPhone ? '100%' : 360} rootClassName="filter-drawer" data-testid="filters-drawer">
        {sorting ? (
          <Form layout="vertical" component="div" className="filter-sort">
            <Form.Item label={t('phone.sortBy')} htmlFor={sortId}>
              <Select
                id={sortId}
                value={sortValue}
                options={options}
                onChange={(v: string) => {
                  const [key, order] = v ? (v.split(':') as [string, SortOrder]) : [undefined, undefined];
                  params.setSort(key, order);
                }}
                data-testid="filters-sort"
              />
            </Form.Item>
          </Form>
        ) : null}
        {children ? (
          <FilterBar params={params} names={names} codecs={codecs} instant={instant} layout="vertical" onApplied={() => setOpen(false)}>
            {children}
          </FilterBar>
        ) : null}
      </Drawer>
    </>
  );
}

/** A column title as text (titles are strings on every list; anything else gives its key). */
function textOf(label: ReactNode): string {
  return typeof label === 'string' || typeof label === 'number' ? String(label) : '';
}

/** The sortable columns of a list, offered as "Sort by" in a phone's filter drawer. */
export function sortOptionsOf<Row>(columns: ColumnsType<Row>): SortOption[] {
  return columns.filter((c) => c.sorter && typeof c.title !== 'function').map((c) => ({ key: String(c.key ?? ('dataIndex' in c ? c.dataIndex : '')), label: c.title as ReactNode }));
}
