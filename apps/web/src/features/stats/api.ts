/** The stats module's calls (contract: `statsApi` in `@app/contract/api/stats`). */
import type { StatsPage } from '@app/contract/api/stats';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpoint } from '../../components/list';
import { downloadFile } from '../../lib/download';

export interface StatsInput {
  from: string;
  to: string;
  institution_id?: number;
}

const keep = { placeholderData: keepPreviousData, staleTime: 30_000 };
export const useEquipmentStats = (q: StatsInput) => useEndpoint('stats.equipment', { from: q.from, to: q.to }, keep);
export const useDistributionStats = (q: StatsInput) => useEndpoint('stats.distribution', { from: q.from, to: q.to }, keep);
export const useInstitutionStats = (q: StatsInput) => useEndpoint('stats.institution', { from: q.from, to: q.to }, keep);
export const useFinanceStats = (q: StatsInput) => useEndpoint('stats.finance', q, keep);

/** Downloads one table of a page as CSV or XLSX (titles in the user's language). */
export const exportStatsTable = (page: StatsPage, table: string, format: 'csv' | 'xlsx', q: StatsInput) =>
  downloadFile('stats.exportTable', { ...q, page, table, format }, `stats-${page}-${table}.${format}`);
