/**
 * The navbar's bell: the unread count, a drawer of the latest notices (each opens the page that resolves
 * it and marks it read), "mark all read", the way to the notice page. It holds the page's live stream
 * (live.ts); while the stream cannot be held, the count is polled.
 */
import { useRef, useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Flex from 'antd/es/flex';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import BellOutlined from '@ant-design/icons/es/icons/BellOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { NoticeRow } from '@app/contract/api/notices';
import { RelativeTime } from '../../components/RelativeTime';
import { useMarkRead, useNotices } from './api';
import { POLL_MS, useNoticeStream } from './live';
import './notices.css';

const LATEST = 8;

export function NoticeBell() {
  const { t } = useTranslation('notices');
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // A toast per notice, at most three in ten seconds (a check announcing many devices at once shows in the bell).
  const shown = useRef<number[]>([]);
  const mode = useNoticeStream(true, (n) => {
    const now = Date.now();
    shown.current = shown.current.filter((at) => now - at < 10_000);
    if (shown.current.length >= 3) return;
    shown.current.push(now);
    notification.open({ message: n.title, description: n.body, placement: 'bottomRight', duration: 4, className: `notice-toast notice-${n.level}` });
  });
  const latest = useNotices({ page: 1, limit: LATEST }, mode === 'polling' ? POLL_MS : false);
  const markRead = useMarkRead();
  const unread = latest.data?.unread ?? 0;
  const list = latest.data?.list ?? [];

  const follow = (n: NoticeRow) => {
    if (!n.read_at) markRead.mutate({ ids: [n.id] });
    setOpen(false);
    navigate(n.link);
  };

  return (
    <>
      <Tooltip title={mode === 'polling' ? t('polling') : t('bell')}>
        {/* The count as the error log's badge shows its own (shell styles: `icon-badge`); the name says it. */}
        <span className="icon-badge">
          <Button type="text" aria-label={unread ? t('bellUnread', { count: unread }) : t('bell')} data-testid="notice-bell" data-live={mode} onClick={() => setOpen(true)} icon={<BellOutlined />} />
          {unread ? (
            <span className="icon-badge-count" data-testid="notice-count" aria-hidden>
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </span>
      </Tooltip>
      <Drawer
        title={t('drawerTitle')}
        open={open}
        onClose={() => setOpen(false)}
        size="default"
        data-testid="notice-drawer"
        extra={
          <Button size="small" disabled={!unread} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })} data-testid="notice-read-all">
            {t('markAllRead')}
          </Button>
        }
        footer={
          <Button
            type="link"
            onClick={() => {
              setOpen(false);
              navigate('/notices');
            }}
            data-testid="notice-all"
          >
            {t('allNotices')}
          </Button>
        }
      >
        {list.length ? (
          <ul className="notice-list" aria-label={t('drawerTitle')}>
            {list.map((n) => (
              <li key={n.id} className={`notice-item notice-${n.level}${n.read_at ? '' : ' notice-unread'}`} data-testid="notice-item">
                <button type="button" className="notice-open" onClick={() => follow(n)}>
                  <Flex justify="space-between" gap={8} align="baseline">
                    <Typography.Text strong={!n.read_at}>{n.title}</Typography.Text>
                    {n.read_at ? null : <span className="notice-dot" role="img" aria-label={t('unread')} />}
                  </Flex>
                  <Typography.Paragraph type="secondary" className="notice-body">
                    {n.body}
                  </Typography.Paragraph>
                </button>
                <RelativeTime value={n.created_at} />
              </li>
            ))}
          </ul>
        ) : (
          <Typography.Text type="secondary">{t('empty')}</Typography.Text>
        )}
      </Drawer>
    </>
  );
}
