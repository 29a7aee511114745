import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Table from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import type { TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import { useTranslation } from 'react-i18next';
import { COUNT_CAP } from '@app/contract/constants';
import { useSettings } from '../../lib/settings';
import { formatNumber } from '../../lib/money';
import type { ListParams, SortOrder } from './useListParams';
import { FilterBar } from './FilterBar';
import { ListEmpty } from './ListEmpty';
import { ColumnSettings } from './ColumnSettings';
import { SavedViews } from './SavedViews';
import { shapeColumns, useListPreferences } from './shape';
import { useIsMobile, useIsPhone } from '../../lib/media';
import { FilterDrawer, sortOptionsOf } from './FilterDrawer';
import { PhoneList } from './PhoneList';
import { tabletColumns, tableColumns } from './card-spec';
import type { ListPageProps } from './list-props';

export type { ListPageProps, ListQueryState } from './list-props';

/** Formats a list total: exact, or "10,000+" when the server stopped counting. */
export function totalText(total: number, capped: boolean | undefined, lang: Parameters<typeof formatNumber>[1]) {
  return capped ? `${formatNumber(Math.max(total, COUNT_CAP), lang)}+` : formatNumber(total, lang);
}

/**
 * A server-paged list: filter bar, toolbar, antd Table with paging and sorting in the URL, totals
 * ("10,000+" when capped) and an empty state that says why it is empty.
 */
export function ListPage<Row extends object, F extends string>(props: ListPageProps<Row, F>) {
  const { params, query, columns, rowKey, filters, toolbar, title, tableProps, codecs, instant, noDataText, testId } = props;
  const { t } = useTranslation();
  const lang = useSettings((s) => s.lang);
  const data = query.data;
  const prefs = useListPreferences(props.listName);
  const isMobile = useIsMobile();
  const isPhone = useIsPhone();

  const sortedColumns = tabletColumns(tableColumns(shapeColumns(props.listName, columns, prefs.data?.columns)), isMobile && !isPhone).map((c) => {
    if (!c.sorter) return c;
    const key = String(c.key ?? ('dataIndex' in c ? c.dataIndex : ''));
    return { ...c, sortOrder: params.sort === key ? (params.order ?? null) : null, sortDirections: ['ascend', 'descend'] as SortOrder[] };
  });

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
      const key = s?.column ? String(s.columnKey ?? s.field ?? '') : '';
      params.setSort(key && s?.order ? key : undefined, s?.order ?? undefined);
      return;
    }
    if (extra.action === 'paginate') params.setPage(pagination.current ?? 1, pagination.pageSize);
  };

  const reason = query.isError && !data ? 'error' : query.isPending || (!data && query.isFetching) ? 'loading' : params.hasFilters ? 'no-match' : 'no-data';
  const total = data?.total ?? 0;
  // Phones get cards, the filters in a drawer and the toolbar folded (PhoneList).
  if (isPhone) return <PhoneList {...props} reason={reason} totalLabel={t('list.total', { total: totalText(total, data?.capped, lang) })} />;

  return (
    <Flex vertical gap={16} data-testid={testId}>
      {filters && !isMobile ? (
        <section className="list-panel list-filters" aria-label={t('list.filters')}>
          <FilterBar params={params} names={props.filterNames} codecs={codecs} instant={instant}>
            {filters}
          </FilterBar>
        </section>
      ) : null}
      <section className="list-panel list-card">
        <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
          <div className="list-title">{title}</div>
          <Flex gap={8} wrap align="center">
            {isMobile ? (
              <FilterDrawer params={params} names={props.filterNames} codecs={codecs} instant={instant} sortOptions={sortOptionsOf(columns)}>
                {filters}
              </FilterDrawer>
            ) : null}
            {toolbar}
            {props.listName ? (
              <>
                <SavedViews list={props.listName} params={params as ListParams} />
                <ColumnSettings list={props.listName} columns={columns} />
              </>
            ) : null}
            <Tooltip title={t('list.refresh')}>
              <Button aria-label={t('list.refresh')} icon={<ReloadOutlined spin={query.isFetching} />} onClick={() => query.refetch()} data-testid="list-refresh" />
            </Tooltip>
          </Flex>
        </Flex>
        {props.bulk}
        <Table<Row>
          {...tableProps}
          columns={sortedColumns}
          dataSource={data?.list ?? []}
          rowKey={rowKey as TableProps<Row>['rowKey']}
          loading={query.isFetching}
          scroll={{ x: 'max-content', ...(tableProps?.scroll ?? {}) }}
          onChange={onChange}
          showSorterTooltip={false}
          locale={{ emptyText: <ListEmpty reason={reason} noDataText={noDataText} errorText={query.error?.message} onClear={() => params.resetFilters()} onRetry={() => query.refetch()} /> }}
          pagination={{
            current: params.page,
            pageSize: params.limit,
            total,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: () => <span data-testid="list-total">{t('list.total', { total: totalText(total, data?.capped, lang) })}</span>,
            hideOnSinglePage: false,
            ...(isMobile ? { size: 'small' as const, showLessItems: true } : {}),
          }}
        />
      </section>
    </Flex>
  );
}
