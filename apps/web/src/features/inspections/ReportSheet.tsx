import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'antd/es/qr-code';
import type { AnalysisSystem } from '@app/contract/analysis';
import type { InspectionReportData } from '@app/contract/api/inspections';
import { changesSinceLast, meridianBarsOption, systemBarsHeight, systemBarsOption } from '@app/contract/report-charts';
import { PARAM_META } from '@app/contract/api/params';
import { useText } from '../../components/l10n-text';
import { formatDate, formatDateTime } from '../../lib/time';
import { EChart } from './EChart';
import { INDEX_LABEL, useTrendCharts } from './trend';

/** The sheet's inner width in CSS pixels: A4 (210 mm) less 2 x 12 mm margins, at 96 px per inch. */
export const SHEET_WIDTH = 700;
const RISK_CLASS = { high: 'risk-high', medium: 'risk-medium', low: 'risk-low' } as const;

/**
 * The printable report of one inspection, in the reader's language: header (with the QR code of the
 * active link to the person's page), meridian bars with the baseline and its ±15 band, the indices and
 * what changed since the last inspection, the trend over the person's earlier inspections, the body
 * systems as bars sorted by score (legible with 34 systems and more in every language), risks with
 * advice, acupoints and diagrams with their markers, the disclaimer. Laid out for A4: sections never
 * break inside (report.css). The charts are the server PDF's own (@app/contract/report-charts).
 * `width` narrows the sheet (the public page on a phone): the charts follow it.
 */
export function ReportSheet({ data, width = SHEET_WIDTH }: { data: InspectionReportData; width?: number }) {
  const { t } = useTranslation('inspections');
  const { t: tc } = useTranslation();
  const text = useText();
  const { inspection: ins } = data;
  const a = ins.analysis;
  const narrow = width < SHEET_WIDTH;

  const bars = useMemo(
    // On a phone the meridians are named by their codes alone (the names would run into each other).
    () => (a ? meridianBarsOption(a, { left: t('report.left'), right: t('report.right'), baseline: t('report.baseline'), meridian: (m) => (narrow ? '' : tc(`meridian.${m}`)) }) : null),
    [a, t, tc, narrow],
  );
  const systems = useMemo(
    () => (a ? systemBarsOption(a.systems, (s: AnalysisSystem) => text(s.name), { score: t('result.score') }, narrow ? Math.round(width * 0.38) : 200) : null),
    [a, text, t, narrow, width],
  );
  const day = (iso: string) => formatDate(iso);
  const charts = useTrendCharts(a, ins.measured_at, data.history);
  const trend = a && data.history.length ? Object.assign({ systemsHeight: 170 + Math.ceil(charts.followed / (narrow ? 2 : 3)) * 16 }, charts) : null;
  const changes = useMemo(() => changesSinceLast(a, data.history), [a, data.history]);

  const defaultDisclaimer = PARAM_META.report_disclaimer.default;
  const disclaimer = data.disclaimer === defaultDisclaimer ? t('report.defaultDisclaimer') : data.disclaimer;
  const adviceOf = new Map(data.diseases.map((d) => [d.id, d]));
  const fmt = (v: number | null) => (v == null ? '—' : v.toFixed(2));

  return (
    <article className={narrow ? 'report-sheet report-narrow' : 'report-sheet'} style={narrow ? { width: width + 24 } : undefined} data-testid="report-sheet">
      <header className="report-head report-block">
        <div className="report-title">
          <div>
            <h1>{t('report.title')}</h1>
            <div className="report-inst">{ins.institution.name}</div>
          </div>
          {data.share ? (
            <div className="report-qr" data-testid="report-qr">
              <QRCode value={data.share.url} size={narrow ? 72 : 88} bordered={false} type="svg" role="img" aria-label={t('share.qrLabel')} />
              <div className="report-muted">{t('report.qr', { date: day(data.share.expires_at) })}</div>
            </div>
          ) : null}
        </div>
        {narrow ? (
          <dl className="report-facts-narrow">
            {[
              [t('report.person'), ins.user.name],
              [t('report.gender'), t(`report.genders.${ins.user.gender}`)],
              [t('report.birth'), ins.user.birth_date ? formatDate(ins.user.birth_date) : '—'],
              [t('report.idNumber'), ins.user.id_number ?? '—'],
              [t('report.doctor'), ins.doctor ? `${ins.doctor.name}${ins.doctor.title ? ` · ${ins.doctor.title}` : ''}` : '—'],
              [t('report.device'), ins.device.serial],
              [t('report.time'), formatDateTime(ins.measured_at)],
              [t('report.number'), ins.inspection_no],
            ].map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd data-testid={k === t('report.person') ? 'report-person' : undefined}>{v}</dd>
              </div>
            ))}
          </dl>
        ) : (
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
        )}
      </header>

      {!a ? (
        <p>{t('noAnalysis')}</p>
      ) : (
        <>
          <section className="report-block">
            <h2>{t('report.meridians')}</h2>
            <p className="report-muted">{t('report.meridiansHelp', { b: a.baseline.toFixed(2) })}</p>
            {bars ? <EChart option={bars} width={width} height={narrow ? 230 : 270} testId="report-meridian-chart" label={t('report.meridians')} /> : null}
          </section>

          <section className="report-block">
            <h2>{t('report.indices')}</h2>
            <table className="report-table">
              <tbody>
                <tr>
                  <th>{t('report.baseline')}</th>
                  <td>{a.baseline.toFixed(2)}</td>
                  <th>{t('report.yinYang')}</th>
                  <td data-testid="report-yin-yang">{fmt(a.indices.yin_yang)}</td>
                </tr>
                <tr>
                  <th>{t('report.upperLower')}</th>
                  <td>{fmt(a.indices.upper_lower)}</td>
                  <th>{t('report.leftRight')}</th>
                  <td>{fmt(a.indices.left_right)}</td>
                </tr>
              </tbody>
            </table>
          </section>

          <section className="report-block" data-testid="report-history">
            <h2>{t('report.history')}</h2>
            {!data.history.length ? (
              <p className="report-muted">{t('report.noHistory')}</p>
            ) : (
              <>
                <p className="report-muted">{t('report.historyHelp', { n: data.history.length })}</p>
                {changes ? (
                  <div className="report-changes" data-testid="report-changes">
                    <strong>{t('report.changes', { date: day(changes.since) })}</strong>
                    <div className="report-change-indices">
                      {changes.indices.map((c) => (
                        <span key={c.key}>
                          {t(INDEX_LABEL[c.key])}: {fmt(c.from)} → {fmt(c.to)}
                        </span>
                      ))}
                    </div>
                    {changes.systems.length ? (
                      <ul>
                        {changes.systems.map((c) => (
                          <li key={c.system.id}>
                            {text(c.system.name)}:{' '}
                            <span className={`level-${c.from.level}`}>
                              {t(`level.${c.from.level}`)} {c.from.score}
                            </span>{' '}
                            →{' '}
                            <span className={`level-${c.to.level}`}>
                              {t(`level.${c.to.level}`)} {c.to.score}
                            </span>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <div className="report-muted">{t('report.noChanges')}</div>
                    )}
                  </div>
                ) : null}
                {trend ? <EChart option={trend.indices} width={width} height={170} testId="report-trend-indices" label={t('report.history')} /> : null}
                {trend?.systems ? <EChart option={trend.systems} width={width} height={trend.systemsHeight} testId="report-trend-systems" label={t('report.history')} /> : null}
              </>
            )}
          </section>

          <section className="report-block">
            <h2>{t('report.systems')}</h2>
            <p className="report-muted">{t('report.systemsHelp')}</p>
            {systems ? <EChart option={systems} width={width} height={systemBarsHeight(a.systems.length)} testId="report-systems-chart" label={t('report.systems')} /> : null}
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
