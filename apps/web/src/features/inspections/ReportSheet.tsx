import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InspectionReportData } from '@app/contract/api/inspections';
import { PARAM_META } from '@app/contract/api/params';
import { useText } from '../../components/l10n-text';
import { formatDate, formatDateTime } from '../../lib/time';
import { EChart } from './EChart';

/** The sheet's inner width in CSS pixels: A4 (210 mm) less 2 x 12 mm margins, at 96 px per inch. */
export const SHEET_WIDTH = 700;
const RISK_CLASS = { high: 'risk-high', medium: 'risk-medium', low: 'risk-low' } as const;

/**
 * The printable report of one inspection, in the reader's language: header, meridian bars with the
 * baseline and its ±15 band, the system radar, the indices, risks with advice, acupoints and diagrams
 * with their markers, the disclaimer. Laid out for A4: sections never break inside (report.css).
 */
export function ReportSheet({ data }: { data: InspectionReportData }) {
  const { t } = useTranslation('inspections');
  const { t: tc } = useTranslation();
  const text = useText();
  const { inspection: ins } = data;
  const a = ins.analysis;

  const bars = useMemo(() => {
    if (!a) return null;
    const b = a.baseline;
    return {
      grid: { left: 40, right: 12, top: 30, bottom: 42 },
      legend: { top: 0, right: 0, data: [t('report.left'), t('report.right')] },
      xAxis: { type: 'category', data: a.meridians.map((m) => m.meridian), axisLabel: { formatter: (m: string) => `${m}\n${tc(`meridian.${m}`)}`, fontSize: 9, interval: 0 } },
      yAxis: { type: 'value', min: 0 },
      series: [
        {
          name: t('report.left'),
          type: 'bar',
          data: a.meridians.map((m) => m.left),
          itemStyle: { color: '#5470c6' },
          barGap: '10%',
          markLine: { symbol: 'none', silent: true, label: { formatter: `${t('report.baseline')} ${b}`, position: 'insideEndTop' }, lineStyle: { color: '#333', type: 'solid' }, data: [{ yAxis: b }] },
          markArea: { silent: true, itemStyle: { color: 'rgba(82, 196, 26, 0.14)' }, data: [[{ yAxis: b - 15 }, { yAxis: b + 15 }]] },
        },
        { name: t('report.right'), type: 'bar', data: a.meridians.map((m) => m.right), itemStyle: { color: '#91cc75' } },
      ],
    };
  }, [a, t, tc]);

  const radar = useMemo(() => {
    if (!a || a.systems.length < 3) return null;
    return {
      radar: { indicator: a.systems.map((s) => ({ name: text(s.name), max: 100 })), radius: '62%', axisName: { color: '#333', fontSize: 10 } },
      series: [
        { type: 'radar', data: [{ value: a.systems.map((s) => s.score), areaStyle: { color: 'rgba(238, 102, 102, 0.25)' }, lineStyle: { color: '#ee6666' }, itemStyle: { color: '#ee6666' } }] },
      ],
    };
  }, [a, text]);

  const defaultDisclaimer = PARAM_META.report_disclaimer.default;
  const disclaimer = data.disclaimer === defaultDisclaimer ? t('report.defaultDisclaimer') : data.disclaimer;
  const adviceOf = new Map(data.diseases.map((d) => [d.id, d]));
  const fmt = (v: number | null) => (v == null ? '—' : v.toFixed(2));

  return (
    <article className="report-sheet" data-testid="report-sheet">
      <header className="report-head report-block">
        <div className="report-title">
          <h1>{t('report.title')}</h1>
          <div className="report-inst">{ins.institution.name}</div>
        </div>
        <table className="report-facts">
          <tbody>
            <tr>
              <th>{t('report.person')}</th>
              <td data-testid="report-person">{ins.user.name}</td>
              <th>{t('report.gender')}</th>
              <td>{t(`report.genders.${ins.user.gender}`)}</td>
              <th>{t('report.birth')}</th>
              <td>{ins.user.birth_date ? formatDate(ins.user.birth_date) : '—'}</td>
            </tr>
            <tr>
              <th>{t('report.idNumber')}</th>
              <td className="mono" data-testid="report-id-number">
                {ins.user.id_number ?? '—'}
              </td>
              <th>{t('report.doctor')}</th>
              <td>{ins.doctor ? `${ins.doctor.name}${ins.doctor.title ? ` · ${ins.doctor.title}` : ''}` : '—'}</td>
              <th>{t('report.device')}</th>
              <td className="mono">{ins.device.serial}</td>
            </tr>
            <tr>
              <th>{t('report.time')}</th>
              <td>{formatDateTime(ins.measured_at)}</td>
              <th>{t('report.number')}</th>
              <td className="mono" colSpan={3}>
                {ins.inspection_no}
                {ins.latest_version > 1 ? <span className="report-muted"> · {t('version', { v: ins.version })}</span> : null}
              </td>
            </tr>
          </tbody>
        </table>
      </header>

      {!a ? (
        <p>{t('noAnalysis')}</p>
      ) : (
        <>
          <section className="report-block">
            <h2>{t('report.meridians')}</h2>
            <p className="report-muted">{t('report.meridiansHelp', { b: a.baseline.toFixed(2) })}</p>
            {bars ? <EChart option={bars} width={SHEET_WIDTH} height={270} testId="report-meridian-chart" /> : null}
          </section>

          <section className="report-block report-row">
            <div className="report-radar">
              <h2>{t('report.systems')}</h2>
              {radar ? <EChart option={radar} width={400} height={280} testId="report-radar" /> : null}
              <p className="report-muted">{t('report.systemsHelp')}</p>
            </div>
            <div className="report-indices">
              <h2>{t('report.indices')}</h2>
              <table className="report-table">
                <tbody>
                  <tr>
                    <th>{t('report.baseline')}</th>
                    <td>{a.baseline.toFixed(2)}</td>
                  </tr>
                  <tr>
                    <th>{t('report.yinYang')}</th>
                    <td data-testid="report-yin-yang">{fmt(a.indices.yin_yang)}</td>
                  </tr>
                  <tr>
                    <th>{t('report.upperLower')}</th>
                    <td>{fmt(a.indices.upper_lower)}</td>
                  </tr>
                  <tr>
                    <th>{t('report.leftRight')}</th>
                    <td>{fmt(a.indices.left_right)}</td>
                  </tr>
                </tbody>
              </table>
              <div className="report-systems">
                {a.systems.map((sys) => (
                  <div key={sys.id} className="report-system">
                    <span className="report-system-name">{text(sys.name)}</span>
                    <span className="report-system-score">{sys.score}</span>
                    <span className={`level-${sys.level}`}>{t(`level.${sys.level}`)}</span>
                  </div>
                ))}
              </div>
            </div>
          </section>

          <section className="report-block">
            <h2>{t('report.risks')}</h2>
            {a.diseases.length === 0 ? <p>{t('report.noRisks')}</p> : null}
            {a.diseases.map((d) => {
              const more = adviceOf.get(d.id);
              return (
                <div key={d.id} className="report-risk" data-testid="report-risk">
                  <div>
                    <strong>{text(d.name)}</strong> <span className={`risk-tag ${RISK_CLASS[d.risk]}`}>{t(`risk.${d.risk}`)}</span>{' '}
                    <span className="report-muted">{t('report.share', { p: `${Math.round(d.share * 100)}%` })}</span>
                  </div>
                  {more?.advice && text(more.advice) ? (
                    <div>
                      <span className="report-muted">{t('report.advice')}: </span>
                      {text(more.advice)}
                    </div>
                  ) : null}
                </div>
              );
            })}
          </section>

          {data.acupoints.length ? (
            <section className="report-block">
              <h2>{t('report.acupoints')}</h2>
              <table className="report-table report-points">
                <tbody>
                  {data.acupoints.map((p) => (
                    <tr key={p.id}>
                      <td className="mono">{p.code}</td>
                      <td>{text(p.name)}</td>
                      <td>{p.meridian ? `${p.meridian} · ${tc(`meridian.${p.meridian}`)}` : ''}</td>
                      <td className="report-muted">{p.location ? text(p.location) : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}

          {data.schematics.length ? (
            <section className="report-diagrams">
              <h2 className="report-block">{t('report.diagrams')}</h2>
              <div className="report-diagram-grid">
                {data.schematics.map((s) => (
                  <figure key={s.id} className="report-diagram report-block" data-testid="report-diagram">
                    <div className="report-diagram-img">
                      <img src={s.url} alt={text(s.title)} />
                      {s.markers.map((m) => (
                        <span key={`${m.acupoint_id}-${m.x}-${m.y}`} className={m.advised ? 'marker advised' : 'marker'} style={{ left: `${m.x * 100}%`, top: `${m.y * 100}%` }}>
                          {m.advised ? <span className="marker-label">{m.code}</span> : null}
                        </span>
                      ))}
                    </div>
                    <figcaption>{text(s.title)}</figcaption>
                  </figure>
                ))}
              </div>
            </section>
          ) : null}
        </>
      )}

      <footer className="report-block report-disclaimer">
        <h2>{t('report.disclaimer')}</h2>
        <p data-testid="report-disclaimer">{disclaimer}</p>
      </footer>
    </article>
  );
}
