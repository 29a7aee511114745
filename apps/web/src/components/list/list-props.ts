/** The props of a server-paged list (ListPage), on every screen size (PhoneList takes the same on a phone). */
import type { Key, ReactNode } from 'react';
import type { TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { ListResult } from '@app/contract/envelope';
import type { ListParams } from './useListParams';
import type { FilterCodec } from './codecs';
import type { ListName } from './shape';

/** The part of a react-query result ListPage reads. */
export interface ListQueryState<Row> {
  data?: ListResult<Row>;
  isFetching: boolean;
  isPending?: boolean;
  isError: boolean;
  error?: Error | null;
  refetch: () => unknown;
}

export interface ListPageProps<Row, F extends string> {
  params: ListParams<F>;
  query: ListQueryState<Row>;
  /** antd columns. Sortable ones: `sorter: true` and `key` = the server's sort name. */
  columns: ColumnsType<Row>;
  rowKey: string | ((row: Row) => Key);
  /** Filter fields (`Form.Item`s named like the filters). Omit for a list without filters. */
  filters?: ReactNode;
  filterNames?: readonly F[];
  codecs?: FilterCodec[];
  instant?: readonly string[];
  /** Card title above the table (defaults to nothing; the tab shows the page title). */
  title?: ReactNode;
  /** Buttons at the table's top right (create, export…), usually wrapped in <Access>. */
  toolbar?: ReactNode;
  /** Text of the no-data empty state, e.g. "No devices yet". */
  noDataText?: string;
  tableProps?: Omit<TableProps<Row>, 'columns' | 'dataSource' | 'rowKey' | 'pagination' | 'onChange'>;
  testId?: string;
  /** The list's endpoint (`equipment.list`): column settings and saved views, kept per account (issue 36). */
  listName?: ListName;
  /** Shown above the table (a BulkBar while rows are selected). */
  bulk?: ReactNode;
  /** On a phone's card (below 576 px): what tapping it does (the row's detail or main action). Columns say what a card shows (`mobile`, card-spec.ts). */
  onCardOpen?: (row: Row) => void;
  /** On a phone: shown under the cards (what a table's summary row says). */
  cardFooter?: ReactNode;
}
