import { useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import List from 'antd/es/list';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { SHARE_LIMITS, type ShareAnswer } from '@app/contract/api/inspections';
import { formatDateTime } from '../../lib/time';
import { useShare, useShareList, useUnshare } from './api';

/**
 * "Share with the person" (button inspection:share): makes a link to the report's public page, valid the
 * days given (default: the parameter share_days, which the server applies when the field is left empty),
 * shows it with its QR code, and lists the report's active links, each revocable (or all at once).
 */
export function ShareDialog({ id, open, onClose }: { id: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('inspections');
  const { modal, message } = App.useApp();
  const [days, setDays] = useState<number | null>(null);
  const [made, setMade] = useState<ShareAnswer | null>(null);
  const list = useShareList(id, open);
  const share = useShare();
  const unshare = useUnshare();
  const links = list.data?.list ?? [];

  const create = async () => {
    const out = await share.mutateAsync(days ? { id, days } : { id });
    setMade(out);
  };
  const revoke = (shareId?: number) =>
    modal.confirm({
      title: shareId ? t('share.revoke') : t('share.revokeAll'),
      content: t('share.revokeConfirm'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const out = await unshare.mutateAsync(shareId ? { id, share_id: shareId } : { id });
        void message.success(t('share.revoked', { n: out.revoked }));
        if (made && (!shareId || shareId === made.id)) setMade(null);
      },
    });
  const shown = made ?? (links[0] ? { url: links[0].url, expires_at: links[0].expires_at } : null);

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('share.title')} width={560} destroyOnHidden data-testid="share-dialog">
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('share.help')}
        </Typography.Paragraph>
        <Flex gap={8} align="center" wrap>
          <label htmlFor="share-days">{t('share.days')}</label>
          <InputNumber
            id="share-days"
            min={SHARE_LIMITS.days.min}
            max={SHARE_LIMITS.days.max}
            precision={0}
            value={days}
            onChange={(v) => setDays(v)}
            placeholder={t('share.daysDefault')}
            style={{ width: 140 }}
            data-testid="share-days"
          />
          <Button type="primary" onClick={create} loading={share.isPending} data-testid="share-create">
            {t('share.create')}
          </Button>
        </Flex>
        {shown ? (
          <Flex gap={12} align="center" wrap data-testid="share-made">
            <QRCode value={shown.url} size={140} type="svg" role="img" aria-label={t('share.qrLabel')} data-testid="share-qr" />
            <Flex vertical gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
              <Input readOnly value={shown.url} aria-label={t('share.link')} data-testid="share-url" />
              <Flex gap={8} wrap>
                <Button
                  onClick={() => {
                    void navigator.clipboard?.writeText(shown.url).then(() => message.success(t('share.copied')));
                  }}
                >
                  {t('share.copy')}
                </Button>
                <Typography.Text type="secondary">{t('share.until', { time: formatDateTime(shown.expires_at) })}</Typography.Text>
              </Flex>
            </Flex>
          </Flex>
        ) : null}
        <Flex justify="space-between" align="center">
          <Typography.Text strong>{t('share.active')}</Typography.Text>
          {links.length ? (
            <Button danger size="small" onClick={() => revoke()} data-testid="share-revoke-all">
              {t('share.revokeAll')}
            </Button>
          ) : null}
        </Flex>
        {links.length ? (
          <List
            size="small"
            bordered
            dataSource={links}
            data-testid="share-list"
            renderItem={(l) => (
              <List.Item
                actions={[
                  <Button key="r" size="small" danger onClick={() => revoke(l.id)} data-testid={`share-revoke-${l.id}`}>
                    {t('share.revoke')}
                  </Button>,
                ]}
              >
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text ellipsis style={{ maxWidth: 340 }}>
                    {l.url}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    {t('share.until', { time: formatDateTime(l.expires_at) })} · {l.created_by}
                  </Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('share.none')} />
        )}
      </Flex>
    </Modal>
  );
}
