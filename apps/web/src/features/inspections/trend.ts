import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Analysis, AnalysisSystem } from '@app/contract/analysis';
import type { InspectionHistoryEntry } from '@app/contract/api/inspections';
import { indicesTrendOption, systemsTrendOption, trendPoints, trendSystems } from '@app/contract/report-charts';
import { useText } from '../../components/l10n-text';
import { formatDate } from '../../lib/time';

/** The three indices' names (keys of the inspections strings). */
export const INDEX_LABEL = { yin_yang: 'report.yinYang', upper_lower: 'report.upperLower', left_right: 'report.leftRight' } as const;

/**
 * The trend of an inspection over the person's earlier ones, as the result page and the report sheet draw
 * it (the charts are the server PDF's own, @app/contract/report-charts): the three indices, and the body
 * systems followed (`followed`: how many; `systems` is null when none is).
 */
export function useTrendCharts(a: Analysis | null, measuredAt: string, history: readonly InspectionHistoryEntry[]) {
  const { t } = useTranslation('inspections');
  const text = useText();
  return useMemo(() => {
    const points = trendPoints(a, measuredAt, history);
    const followed = trendSystems(a, points);
    const date = (iso: string) => formatDate(iso);
    return {
      followed: followed.length,
      indices: indicesTrendOption(points, { yin_yang: t(INDEX_LABEL.yin_yang), upper_lower: t(INDEX_LABEL.upper_lower), left_right: t(INDEX_LABEL.left_right) }, date),
      systems: followed.length ? systemsTrendOption(points, followed, (s: AnalysisSystem) => text(s.name), date) : null,
    };
  }, [a, measuredAt, history, t, text]);
}
