/** The meridian weights of a system as a small bar chart (compact in the table, labelled in the form). */
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { MERIDIANS, YIN_MERIDIANS } from '@app/contract/api/meridians';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { weightShares, type WeightInputs } from './weights';

export function WeightBars({ weights, size = 'compact' }: { weights: WeightInputs | undefined; size?: 'compact' | 'large' }) {
  const { t } = useTranslation('systems');
  const lang = useSettings((s) => s.lang);
  const shares = weightShares(weights);
  const max = Math.max(...Object.values(shares), 0);
  const none = max === 0;
  const pct = (v: number) => `${formatNumber(Math.round(v * 1000) / 10, lang)}%`;

  if (size === 'compact') {
    const summary = MERIDIANS.filter((m) => shares[m] > 0)
      .map((m) => `${m} ${formatNumber(Number(weights?.[m]), lang)}`)
      .join(' · ');
    if (none) return <span className="text-muted">{t('noWeights')}</span>;
    return (
      <Tooltip title={summary}>
        <div className="weight-bars is-compact" role="img" aria-label={summary}>
          {MERIDIANS.map((m) => (
            <span
              key={m}
              className={`weight-bar${YIN_MERIDIANS.includes(m) ? ' is-yin' : ''}`}
              style={{ height: `${Math.max(shares[m] > 0 ? 12 : 4, (shares[m] / max) * 100)}%`, opacity: shares[m] > 0 ? 1 : 0.25 }}
            />
          ))}
        </div>
      </Tooltip>
    );
  }

  return (
    <div className="weight-chart" data-testid="weight-chart">
      <div className="weight-bars is-large" role="img" aria-label={t('weightsChart')}>
        {MERIDIANS.map((m) => (
          <div key={m} className="weight-col">
            <span className="weight-share">{shares[m] > 0 ? pct(shares[m]) : ''}</span>
            <div className="weight-track">
              <span className={`weight-bar${YIN_MERIDIANS.includes(m) ? ' is-yin' : ''}`} style={{ height: `${none ? 0 : (shares[m] / max) * 100}%` }} />
            </div>
            <Tooltip title={t(`common:meridian.${m}`)}>
              <span className="weight-code">{m}</span>
            </Tooltip>
          </div>
        ))}
      </div>
      {none ? <div className="weight-empty">{t('form.noWeightsHint')}</div> : null}
    </div>
  );
}
