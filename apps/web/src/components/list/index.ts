export { useListParams, type ListParams, type ListParamsOptions, type SortOrder, type FilterValue } from './useListParams';
export { ListPage, totalText, type ListPageProps, type ListQueryState } from './ListPage';
export { FilterBar, type FilterBarProps } from './FilterBar';
export { ListEmpty, type EmptyReason } from './ListEmpty';
export { dateRangeFilter, numberFilter, boolFilter, type FilterCodec } from './codecs';
export { CreateButton, KeywordFilter } from './toolbar';
export {
  endpointListOptions,
  endpointQueryOptions,
  invalidates,
  queryKeyOf,
  useEndpoint,
  useEndpointList,
  useEndpointMutation,
  type EndpointMutationOptions,
  type ListInput,
  type ModuleName,
} from './endpoint-queries';
export { BulkBar, useBulkReport } from './BulkBar';
export { CardList } from './CardList';
export { ActionMenu, RowLinks, useRowActionsMode } from './ActionMenu';
