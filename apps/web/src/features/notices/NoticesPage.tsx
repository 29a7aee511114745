/**
 * /notices: every notice of the caller, newest first, filtered by state, kind and level; each opens the
 * page that resolves it (and is marked read); "mark all read". A personal page: every grade opens it.
 */
import { useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NOTICE_KINDS, NOTICE_LEVELS, type NoticeKind, type NoticeLevel, type NoticeRow } from '@app/contract/api/notices';
import { RelativeTime } from '../../components/RelativeTime';
import { useMarkRead, useNotices } from './api';
import './notices.css';

const LEVEL_COLOR: Record<NoticeLevel, string> = { info: 'blue', warning: 'orange', success: 'green', error: 'red' };
const PAGE_SIZE = 20;

export default function NoticesPage() {
  const { t } = useTranslation('notices');
  const navigate = useNavigate();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [kind, setKind] = useState<NoticeKind | undefined>();
  const [level, setLevel] = useState<NoticeLevel | undefined>();
  const [page, setPage] = useState(1);
  const notices = useNotices({ page, limit: PAGE_SIZE, ...(unreadOnly ? { unread: '1' as const } : {}), ...(kind ? { kind } : {}), ...(level ? { level } : {}) });
  const markRead = useMarkRead();
  const data = notices.data;

  const follow = (n: NoticeRow) => {
    if (!n.read_at) markRead.mutate({ ids: [n.id] });
    navigate(n.link);
  };
  const filtered =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Card
      title={
        <Flex vertical gap={2}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('title')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {t('subtitle')}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Button disabled={!data?.unread} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })} data-testid="notices-read-all">
          {t('markAllRead')}
        </Button>
      }
    >
      <Flex wrap gap={12} align="center" style={{ marginBottom: 12 }} data-testid="notice-filters">
        <Flex gap={6} align="center">
          <Switch size="small" id="notice-unread-only" checked={unreadOnly} onChange={filtered(setUnreadOnly)} data-testid="notice-unread-only" />
          <label htmlFor="notice-unread-only">{t('filters.unreadOnly')}</label>
        </Flex>
        <Select
          allowClear
          style={{ minWidth: 220 }}
          placeholder={t('filters.kind')}
          aria-label={t('filters.kind')}
          value={kind}
          onChange={filtered(setKind)}
          options={NOTICE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          data-testid="notice-kind"
        />
        <Select
          allowClear
          style={{ minWidth: 140 }}
          placeholder={t('filters.level')}
          aria-label={t('filters.level')}
          value={level}
          onChange={filtered(setLevel)}
          options={NOTICE_LEVELS.map((l) => ({ value: l, label: t(`levels.${l}`) }))}
        />
      </Flex>
      <Table<NoticeRow>
        data-testid="notice-table"
        rowKey="id"
        size="middle"
        loading={notices.isFetching && !data}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('empty') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        rowClassName={(n) => (n.read_at ? '' : 'notice-unread')}
        columns={[
          {
            title: t('columns.level'),
            dataIndex: 'level',
            width: 110,
            render: (l: NoticeLevel, n) => <Tag color={LEVEL_COLOR[l]}>{t(`kinds.${n.kind}`)}</Tag>,
          },
          {
            title: t('columns.title'),
            dataIndex: 'title',
            render: (_: string, n) => (
              <Flex vertical gap={2}>
                <Typography.Link strong={!n.read_at} onClick={() => follow(n)}>
                  {n.title}
                </Typography.Link>
                <Typography.Text type="secondary">{n.body}</Typography.Text>
              </Flex>
            ),
          },
          { title: t('columns.created'), dataIndex: 'created_at', width: 150, render: (v: string) => <RelativeTime value={v} /> },
          {
            title: t('columns.state'),
            dataIndex: 'read_at',
            width: 150,
            render: (v: string | null, n) =>
              v ? (
                <Typography.Text type="secondary">{t('read')}</Typography.Text>
              ) : (
                <Button size="small" onClick={() => markRead.mutate({ ids: [n.id] })}>
                  {t('markRead')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}
