import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useErrorLog, type ErrorEntry } from '../lib/error-log';
import { useUi } from '../lib/ui';
import { formatDateTime } from '../lib/time';

export default function ErrorLogDialog() {
  const { t } = useTranslation();
  const open = useUi((s) => s.errorLogOpen);
  const set = useUi((s) => s.set);
  const entries = useErrorLog((s) => s.entries);
  const clear = useErrorLog((s) => s.clear);
  return (
    <Modal
      open={open}
      title={t('errorLog.title')}
      onCancel={() => set({ errorLogOpen: false })}
      width={900}
      data-testid="error-log-dialog"
      footer={[
        <Button key="clear" danger disabled={!entries.length} onClick={clear} data-testid="error-log-clear">
          {t('errorLog.clear')}
        </Button>,
        <Button key="close" type="primary" onClick={() => set({ errorLogOpen: false })}>
          {t('common.close')}
        </Button>,
      ]}
    >
      <Table<ErrorEntry>
        size="small"
        rowKey="id"
        dataSource={entries}
        pagination={entries.length > 10 ? { pageSize: 10 } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('errorLog.empty')} /> }}
        expandable={{ expandedRowRender: (r) => <pre className="error-stack">{r.stack || r.message}</pre>, rowExpandable: (r) => !!r.stack }}
        columns={[
          { key: 'time', title: t('errorLog.time'), dataIndex: 'time', render: (v: number) => formatDateTime(v), width: 150 },
          { key: 'source', title: t('errorLog.source'), dataIndex: 'source', width: 90 },
          { key: 'message', title: t('errorLog.message'), dataIndex: 'message', render: (v: string) => <span className="text-danger">{v}</span> },
          {
            key: 'url',
            title: t('errorLog.url'),
            dataIndex: 'url',
            render: (v: string) => (
              <span className="text-muted ellipsis" title={v} style={{ maxWidth: 220 }}>
                {v}
              </span>
            ),
          },
        ]}
      />
    </Modal>
  );
}
