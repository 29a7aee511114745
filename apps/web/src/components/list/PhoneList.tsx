/**
 * ListPage on a phone (below 576 px, issue 38): the list's header with the filters behind a button (a
 * full-screen drawer, with the sort) and the toolbar folded behind "More actions", the rows as cards
 * (CardList, from the list's own columns), and a compact pager.
 */
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Pagination from 'antd/es/pagination';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import { useTranslation } from 'react-i18next';
import { CardList } from './CardList';
import { FilterDrawer, sortOptionsOf } from './FilterDrawer';
import { type EmptyReason, ListEmpty } from './ListEmpty';
import { ToolbarFold } from './ToolbarFold';
import type { ListPageProps } from './list-props';

/** ListPage's props on a phone (ListPage passes its own), with the empty state's reason and the total's text. */
export type PhoneListProps<Row, F extends string> = ListPageProps<Row, F> & { reason: EmptyReason; totalLabel: string };

export function PhoneList<Row extends object, F extends string>(props: PhoneListProps<Row, F>) {
  const { params, query, columns, rowKey, filters, toolbar, title, tableProps, codecs, instant, noDataText, testId, reason } = props;
  const { t } = useTranslation();
  const data = query.data;
  const total = data?.total ?? 0;
  return (
    <Flex vertical gap={16} data-testid={testId}>
      <section className="list-panel list-card">
        <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }} className="list-head">
          <div className="list-title">{title}</div>
          <Flex gap={8} wrap align="center">
            <FilterDrawer params={params} names={props.filterNames} codecs={codecs} instant={instant} sortOptions={sortOptionsOf(columns)}>
              {filters}
            </FilterDrawer>
            {toolbar ? <ToolbarFold>{toolbar}</ToolbarFold> : null}
            <Button aria-label={t('list.refresh')} title={t('list.refresh')} icon={<ReloadOutlined spin={query.isFetching} />} onClick={() => query.refetch()} data-testid="list-refresh" />
          </Flex>
        </Flex>
        <CardList<Row>
          columns={columns}
          rows={data?.list ?? []}
          rowKey={rowKey}
          loading={query.isFetching}
          empty={<ListEmpty reason={reason} noDataText={noDataText} errorText={query.error?.message} onClear={() => params.resetFilters()} onRetry={() => query.refetch()} />}
          onOpen={props.onCardOpen}
          expandable={tableProps?.expandable}
          rowSelection={tableProps?.rowSelection}
          label={typeof title === 'string' ? title : undefined}
        />
        {props.cardFooter ? <div className="card-footer">{props.cardFooter}</div> : null}
        <Flex className="card-pagination" justify="space-between" align="center" gap={8} wrap>
          <span data-testid="list-total">{props.totalLabel}</span>
          <Pagination simple size="small" current={params.page} pageSize={params.limit} total={total} onChange={(page, size) => params.setPage(page, size)} />
        </Flex>
      </section>
    </Flex>
  );
}
