import { useInstitutionStats } from './api';
import { BackLink } from './BackLink';
import { RangeBar, StatsBoard, useStatsRange } from './StatsBoard';

/** /stats/institution (grade 0, hidden): institutions by grade, region, status and term, new ones, branch applications. */
export default function InstitutionStatsPage() {
  const [range, setRange, params] = useStatsRange();
  const input = { from: range.from, to: range.to };
  const { data, isFetching } = useInstitutionStats(input);
  return (
    <>
      <RangeBar range={range} onChange={setRange} extra={<BackLink search={params.toString()} />} />
      <StatsBoard page="institution" data={data} input={input} loading={isFetching} />
    </>
  );
}
