import Button from 'antd/es/button';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEquipmentStats } from './api';
import { statsHref } from './links';
import { RangeBar, StatsBoard, useStatsRange } from './StatsBoard';

/** /stats/equipment (grade 0): devices by status, activations, inspections, active devices, top institutions and regions; links to the two hidden pages. */
export default function EquipmentStatsPage() {
  const { t } = useTranslation('stats');
  const [range, setRange, params] = useStatsRange();
  const input = { from: range.from, to: range.to };
  const { data, isFetching } = useEquipmentStats(input);
  const keep = params.toString();
  return (
    <>
      <RangeBar
        range={range}
        onChange={setRange}
        extra={
          <Space wrap style={{ marginLeft: 'auto' }}>
            <Link to={statsHref('distribution', keep)} data-testid="link-distribution">
              <Button>{t('links.distribution')}</Button>
            </Link>
            <Link to={statsHref('institution', keep)} data-testid="link-institution">
              <Button>{t('links.institution')}</Button>
            </Link>
            <Link to={statsHref('finance', keep)} data-testid="link-finance">
              <Button>{t('links.finance')}</Button>
            </Link>
          </Space>
        }
      />
      <StatsBoard page="equipment" data={data} input={input} loading={isFetching} />
    </>
  );
}
