import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Segmented from 'antd/es/segmented';
import Skeleton from 'antd/es/skeleton';
import FilePdfOutlined from '@ant-design/icons/es/icons/FilePdfOutlined';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@app/contract/i18n';
import { SHARE_REASONS } from '@app/contract/api/inspections';
import type { InspectionReportData } from '@app/contract/api/inspections';
import { call, isApiError } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { currentLang, setLanguage } from '../../lib/i18n';
import { LANG_LABELS } from '../../lib/lang';
import { LightScope } from '../../components/LightScope';
import { ReportSheet, SHEET_WIDTH } from './ReportSheet';
import './report.css';

/** The window's width, followed. */
function useWindowWidth() {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const on = () => setWidth(window.innerWidth);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return width;
}

/**
 * /share/:token (outside the shell, no sign-in): the report a clinic shared with the person, read-only, in
 * the reader's language with a switch of the four, the sheet narrowed to the phone's width, and its PDF.
 * A link that does not open (unknown, expired, revoked) shows why, in the reader's language; nothing else.
 */
export default function SharePage() {
  const { t, i18n } = useTranslation('inspections');
  const token = useParams().token ?? '';
  const width = useWindowWidth();
  const [downloading, setDownloading] = useState(false);
  const lang = (i18n.language as Lang) ?? currentLang();
  // Outside the shell (no query client): one call when the page opens; the answer is in every language.
  const [data, setData] = useState<InspectionReportData | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let live = true;
    call('inspections.sharedReport', { token }, { silent: true, quietExpired: true }).then(
      (answer) => live && setData(answer),
      (err: Error) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const isPending = !data && !error;
  useEffect(() => {
    document.title = t('shared.title');
  }, [t]);

  const onPdf = async () => {
    setDownloading(true);
    try {
      await downloadFile('inspections.sharedPdf', { token, lang: currentLang() }, 'report.pdf');
    } finally {
      setDownloading(false);
    }
  };
  const reason = isApiError(error) && (SHARE_REASONS as readonly string[]).includes(error.reason ?? '') ? error.reason : null;
  // The sheet's padding (2 x 12 px) and the page's (2 x 8 px), and room for a scroll bar.
  const sheetWidth = Math.min(SHEET_WIDTH, width - 24 - 16 - 8);

  return (
    <div className="share-page" data-testid="share-page">
      <header className="share-bar">
        <Segmented<Lang>
          size="small"
          value={lang}
          onChange={(l) => setLanguage(l)}
          options={LANGS.map((l) => ({ value: l, label: <span lang={l}>{LANG_LABELS[l]}</span> }))}
          aria-label={t('shared.language')}
          data-testid="share-lang"
        />
        {data ? (
          <Button type="primary" icon={<FilePdfOutlined />} onClick={onPdf} loading={downloading} data-testid="share-pdf">
            {t('action.print')}
          </Button>
        ) : null}
      </header>
      {error ? (
        <Result status="warning" title={t('shared.invalid')} subTitle={reason ? t(`shared.reason.${reason}`) : error.message} data-testid="share-invalid" />
      ) : isPending || !data ? (
        <Skeleton active paragraph={{ rows: 10 }} style={{ padding: 16 }} />
      ) : (
        <main className="share-sheet">
          <LightScope>
            <ReportSheet data={data} width={sheetWidth} />
          </LightScope>
        </main>
      )}
    </div>
  );
}
