/**
 * /account/security: every account's own page (a personal route: any session opens it, no role grants
 * it). Its password, and its signed-in sessions (browser, address, started, last seen, "this device"),
 * each of which it can end, or all the others at once (trust-api.md, "Sessions"), and its two-step
 * verification (MfaCard.tsx).
 */
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import List from 'antd/es/list';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import DesktopOutlined from '@ant-design/icons/es/icons/DesktopOutlined';
import KeyOutlined from '@ant-design/icons/es/icons/KeyOutlined';
import MobileOutlined from '@ant-design/icons/es/icons/MobileOutlined';
import TabletOutlined from '@ant-design/icons/es/icons/TabletOutlined';
import { useTranslation } from 'react-i18next';
import type { SessionRow } from '@app/contract/api/sessions';
import { RelativeTime } from '../../components/RelativeTime';
import { formatDateTime } from '../../lib/time';
import { useUi } from '../../lib/ui';
import { useEndOtherSessions, useEndSession, useSessions } from './api';
import { deviceOf } from './user-agent';
import { MfaCard } from './MfaCard';
import './account.css';

const KIND_ICON = { desktop: DesktopOutlined, mobile: MobileOutlined, tablet: TabletOutlined, unknown: DesktopOutlined } as const;

export default function SecurityPage() {
  const { t } = useTranslation('account');
  const { modal, message } = App.useApp();
  const setUi = useUi((s) => s.set);
  const sessions = useSessions();
  const endOne = useEndSession(t('sessions.ended'));
  const endOthers = useEndOtherSessions();
  const list = sessions.data?.list ?? [];
  const others = list.filter((s) => !s.current).length;

  const describe = (s: SessionRow) => {
    const d = deviceOf(s.user_agent);
    if (d.browser && d.os) return t('sessions.browserOn', { browser: d.browser, os: d.os });
    return d.browser || d.os || t('sessions.unknownBrowser');
  };

  const confirmEnd = (s: SessionRow) =>
    modal.confirm({
      title: t('sessions.endTitle'),
      content: t('sessions.endText', { device: describe(s), ip: s.ip || '—' }),
      okText: t('sessions.end'),
      okButtonProps: { danger: true, 'data-testid': 'session-end-ok' },
      cancelText: t('cancel'),
      onOk: () => endOne.mutateAsync({ id: s.id }),
    });

  const confirmEndOthers = () =>
    modal.confirm({
      title: t('sessions.endOthersTitle'),
      content: t('sessions.endOthersText', { count: others }),
      okText: t('sessions.endOthers'),
      okButtonProps: { danger: true, 'data-testid': 'session-end-others-ok' },
      cancelText: t('cancel'),
      onOk: async () => {
        const { ended } = await endOthers.mutateAsync({});
        void message.success(t('sessions.endedOthers', { count: ended }));
      },
    });

  return (
    <div className="account-security" data-testid="account-security">
      <Typography.Title level={2} className="account-title">
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>

      <Card title={<h3 className="account-card-title">{t('password.title')}</h3>} className="account-card">
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Typography.Text type="secondary">{t('password.text')}</Typography.Text>
          <Button icon={<KeyOutlined />} onClick={() => setUi({ passwordOpen: true })} data-testid="security-change-password">
            {t('password.change')}
          </Button>
        </Flex>
      </Card>

      <MfaCard />

      <Card
        title={<h3 className="account-card-title">{t('sessions.title')}</h3>}
        className="account-card"
        extra={
          <Button danger disabled={others === 0} loading={endOthers.isPending} onClick={confirmEndOthers} data-testid="session-end-others">
            {t('sessions.endOthers')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('sessions.text')}</Typography.Paragraph>
        {sessions.isError ? (
          <Result status="warning" title={t('sessions.loadFailed')} extra={<Button onClick={() => sessions.refetch()}>{t('retry')}</Button>} />
        ) : sessions.isPending ? (
          <Skeleton active />
        ) : (
          <List
            data-testid="session-list"
            dataSource={list}
            rowKey="id"
            renderItem={(s) => {
              const Icon = KIND_ICON[deviceOf(s.user_agent).kind];
              return (
                <List.Item
                  data-testid="session-row"
                  data-current={s.current ? 'true' : 'false'}
                  actions={
                    s.current
                      ? []
                      : [
                          // Named by its text, described by the session's browser (data, not interface text).
                          <Button key="end" type="link" danger onClick={() => confirmEnd(s)} aria-describedby={`session-${s.id}-device`} data-testid="session-end">
                            {t('sessions.end')}
                          </Button>,
                        ]
                  }
                >
                  <List.Item.Meta
                    avatar={<Icon className="account-device-icon" aria-hidden />}
                    title={
                      <Flex gap={8} align="center" wrap>
                        <span translate="no" id={`session-${s.id}-device`}>
                          {describe(s)}
                        </span>
                        {s.current ? (
                          <Tag color="green" data-testid="session-current">
                            {t('sessions.current')}
                          </Tag>
                        ) : null}
                        {s.restricted ? <Tag>{t('sessions.restricted')}</Tag> : null}
                      </Flex>
                    }
                    description={
                      <span className="account-session-facts">
                        <span>
                          {t('sessions.ip')}: <span translate="no">{s.ip || '—'}</span>
                        </span>
                        <span>
                          {t('sessions.started')}: {formatDateTime(s.created_at)}
                        </span>
                        <span>
                          {t('sessions.lastSeen')}: <RelativeTime value={s.last_seen_at} />
                        </span>
                      </span>
                    }
                  />
                </List.Item>
              );
            }}
          />
        )}
      </Card>
    </div>
  );
}
