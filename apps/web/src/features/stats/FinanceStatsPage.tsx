import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { useSession } from '../../lib/session';
import { useFinanceStats } from './api';
import { BackLink } from './BackLink';
import { RangeBar, StatsBoard, useStatsRange } from './StatsBoard';

/**
 * /stats/finance (grades 1-2: their own institution; grade 0 by address: any institution picked here,
 * or the platform's own figures): income, commission by period, package and child institution, payouts,
 * and the balance over time from the ledger.
 */
export default function FinanceStatsPage() {
  const { t } = useTranslation('stats');
  const [range, setRange, params, setParam] = useStatsRange();
  const isAdmin = useSession((s) => s.isAdmin);
  const picked = Number(params.get('institution_id')) || undefined;
  const input = { from: range.from, to: range.to, ...(isAdmin && picked ? { institution_id: picked } : {}) };
  const { data, isFetching } = useFinanceStats(input);
  return (
    <>
      <RangeBar
        range={range}
        onChange={setRange}
        extra={
          isAdmin ? (
            <>
              <InstitutionSelect
                value={picked}
                placeholder={t('platform')}
                aria-label={t('pickInstitution')}
                style={{ width: 260 }}
                onChange={(v) => setParam('institution_id', v ? String(v) : undefined)}
                data-testid="stats-institution"
              />
              <BackLink search={params.toString()} />
            </>
          ) : (
            data?.institution && <Typography.Text strong>{data.institution.name}</Typography.Text>
          )
        }
      />
      <StatsBoard page="finance" data={data} input={input} loading={isFetching} />
    </>
  );
}
