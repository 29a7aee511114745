import { useDistributionStats } from './api';
import { BackLink } from './BackLink';
import { RangeBar, StatsBoard, useStatsRange } from './StatsBoard';

/** /stats/distribution (grade 0, hidden): devices moved per period, stock vs distributed, where the moves went. */
export default function DistributionStatsPage() {
  const [range, setRange, params] = useStatsRange();
  const input = { from: range.from, to: range.to };
  const { data, isFetching } = useDistributionStats(input);
  return (
    <>
      <RangeBar range={range} onChange={setRange} extra={<BackLink search={params.toString()} />} />
      <StatsBoard page="distribution" data={data} input={input} loading={isFetching} />
    </>
  );
}
