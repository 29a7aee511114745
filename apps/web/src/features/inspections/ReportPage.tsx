import { useState } from 'react';
import { createPortal } from 'react-dom';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import PrinterOutlined from '@ant-design/icons/es/icons/PrinterOutlined';
import FilePdfOutlined from '@ant-design/icons/es/icons/FilePdfOutlined';
import ShareAltOutlined from '@ant-design/icons/es/icons/ShareAltOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Access } from '../../lib/access';
import { LightScope } from '../../components/LightScope';
import { formatDateTime } from '../../lib/time';
import { downloadFile } from '../../lib/download';
import { currentLang } from '../../lib/i18n';
import { ShareDialog } from './ShareDialog';
import { useInspectionReport, useRecompute } from './api';
import { ReportSheet } from './ReportSheet';
import './report.css';
import { resultPath } from './paths';

/**
 * /inspection/report/:id (hidden route InspectionReport): the printable A4 report. "Download PDF" saves the
 * server's PDF of it (GET /inspection/report_pdf, in the reader's language); "Print" is the browser's
 * own print (window.print): the print stylesheet shows only a copy of the sheet placed
 * directly under <body> (outside the app's scrolling layout, so nothing clips it), with A4 pages whose
 * breaks never cut a section. Grade 0 may recompute the analysis (a new version; the old ones stay).
 */
export default function ReportPage() {
  const { t } = useTranslation('inspections');
  const { modal, message } = App.useApp();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const { data, isError, isPending } = useInspectionReport(valid ? id : 0);
  const recompute = useRecompute();
  const [sharing, setSharing] = useState(false);
  const [downloading, setDownloading] = useState(false);

  if (!valid || isError) return <Result status="warning" title={t('notFound')} extra={<Link to="/inspection/management">{t('action.back')}</Link>} />;
  if (isPending || !data) return <Skeleton active paragraph={{ rows: 12 }} />;
  const ins = data.inspection;
  const onPdf = async () => {
    setDownloading(true);
    try {
      await downloadFile('inspections.reportPdf', { id, lang: currentLang() }, `report-${ins.inspection_no}.pdf`);
    } finally {
      setDownloading(false);
    }
  };

  const onRecompute = () =>
    modal.confirm({
      title: t('action.recompute'),
      content: t('recomputeConfirm'),
      onOk: async () => {
        const out = await recompute.mutateAsync({ id });
        void message.success(t('recomputed', { v: out.version }));
      },
    });

  return (
    <div className="report-page">
      <Space className="report-toolbar" wrap>
        <Link to="/inspection/management">
          <ArrowLeftOutlined /> {t('action.back')}
        </Link>
        <Link to={resultPath(id)} data-testid="report-to-result">
          {t('action.result')}
        </Link>
        {ins.versions.length > 1 ? (
          <span
            className="report-muted"
            title={ins.versions.map((v) => t('versionOf', { v: v.version, time: formatDateTime(v.created_at), by: v.created_by === 'device' ? t('versionDevice') : v.created_by })).join('\n')}
            data-testid="report-versions"
          >
            {t('versionLatest', { v: ins.version })}
          </span>
        ) : null}
        <Access sign="inspection:recompute">
          <Button icon={<ReloadOutlined />} onClick={onRecompute} loading={recompute.isPending} data-testid="report-recompute">
            {t('action.recompute')}
          </Button>
        </Access>
        <Access sign="inspection:share">
          <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="report-share">
            {t('share.button')}
          </Button>
        </Access>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="report-print">
          {t('action.printSheet')}
        </Button>
        <Button type="primary" icon={<FilePdfOutlined />} onClick={onPdf} loading={downloading} data-testid="report-pdf">
          {t('action.print')}
        </Button>
      </Space>
      {/* Scrolls sideways where the sheet is wider than the screen: reachable by keyboard (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for keyboard readers to scroll it */}
      <section className="report-screen" tabIndex={0} aria-label={t('report.title')}>
        <LightScope>
          <ReportSheet data={data} />
        </LightScope>
      </section>
      {sharing ? <ShareDialog id={id} open={sharing} onClose={() => setSharing(false)} /> : null}
      {createPortal(
        <div className="report-print" aria-hidden="true">
          <LightScope>
            <ReportSheet data={data} />
          </LightScope>
        </div>,
        document.body,
      )}
    </div>
  );
}
