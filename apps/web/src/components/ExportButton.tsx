/**
 * Every list's export: a dropdown (CSV / Excel) shown only to viewers holding the page's export button
 * (the server checks the same key), that downloads the list's current filters and sort (every page, not
 * the one shown) through a streamed fetch, with the progress in the page while it runs (rows or bytes
 * received, a percentage when the server announced the total) and a cancel link.
 */
import { useEffect, useRef, useState } from 'react';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Progress from 'antd/es/progress';
import Space from 'antd/es/space';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
import { useTranslation } from 'react-i18next';
import type { ButtonKey } from '@app/contract/routes';
import type { EndpointName, Input } from '../lib/api';
import { Access } from '../lib/access';
import { type DownloadProgress, downloadFile } from '../lib/download';
import { withFeedback } from '../lib/feedback';

type Format = 'csv' | 'xlsx';

export interface ExportButtonProps<N extends EndpointName> {
  /** The list's export endpoint. */
  endpoint: N;
  /** The export button key of the page (`device:export`, ...). */
  sign: ButtonKey;
  /** The list's current query: filters and sort (paging is dropped). */
  query: Record<string, string | number | boolean | undefined | null>;
  /** File name without extension, used when the server names none. */
  filename: string;
  testId?: string;
}

/** A byte count as people read it. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function ExportButton<N extends EndpointName>({ endpoint, sign, query, filename, testId = 'export' }: ExportButtonProps<N>) {
  const { t } = useTranslation();
  const [running, setRunning] = useState<{ format: Format; progress: DownloadProgress } | null>(null);
  const abort = useRef<AbortController | null>(null);
  // Leaving the page cancels a running export.
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (format: Format) => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    const { page: _page, limit: _limit, ...filters } = query;
    setRunning({ format, progress: { bytes: 0, rows: null, total: null } });
    try {
      const saved = await downloadFile(endpoint, { ...filters, format } as unknown as Input<N>, `${filename}.${format}`, {
        signal: controller.signal,
        countRows: format === 'csv',
        onProgress: (progress) => setRunning({ format, progress }),
      });
      withFeedback(({ message }) => {
        void message.info({ content: saved ? t('export.done', { name: saved }) : t('export.cancelled'), key: `export-${testId}` });
      });
    } catch {
      /* the refusal was shown by downloadFile */
    } finally {
      abort.current = null;
      setRunning(null);
    }
  };

  const progress = running?.progress;
  const percent = progress?.total && progress.rows != null ? Math.min(100, Math.floor((progress.rows / progress.total) * 100)) : null;
  return (
    <Access sign={sign}>
      <Space size={8} data-testid={testId}>
        <Dropdown
          disabled={!!running}
          trigger={['click']}
          menu={{
            items: [
              { key: 'csv', label: <span data-testid={`${testId}-csv`}>{t('export.csv')}</span> },
              { key: 'xlsx', label: <span data-testid={`${testId}-xlsx`}>{t('export.xlsx')}</span> },
            ],
            onClick: ({ key }) => void start(key as Format),
          }}
        >
          <Button icon={running ? <LoadingOutlined /> : <DownloadOutlined />} data-testid={`${testId}-button`}>
            {t('export.button')}
          </Button>
        </Dropdown>
        {progress ? (
          <Space size={8} data-testid={`${testId}-progress`} role="status" aria-live="polite">
            {percent != null ? <Progress type="circle" size={22} percent={percent} showInfo={false} /> : null}
            <span>
              {progress.rows != null
                ? t('export.running', { rows: progress.rows.toLocaleString(), size: formatBytes(progress.bytes) })
                : t('export.runningBytes', { size: formatBytes(progress.bytes) })}
              {percent != null ? ` (${percent}%)` : ''}
            </span>
            <Button type="link" size="small" onClick={() => abort.current?.abort()} data-testid={`${testId}-cancel`}>
              {t('export.cancel')}
            </Button>
          </Space>
        ) : null}
      </Space>
    </Access>
  );
}
