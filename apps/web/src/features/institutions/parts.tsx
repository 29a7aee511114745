import Alert from 'antd/es/alert';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { InstitutionRow } from '@app/contract/api/institutions';
import { formatDate } from '../../lib/time';

const GRADE_COLOR: Record<number, string> = { 1: 'geekblue', 2: 'cyan', 3: 'green' };

/** An institution's grade as a tag: agent, sub-agent, clinic / store. */
export function GradeTag({ grade }: { grade: number }) {
  const { t } = useTranslation('institutions');
  return (
    <Tag color={GRADE_COLOR[grade]} variant="filled">
      {t(`grade.${grade}`)}
    </Tag>
  );
}

/** The term's end, marked overdue (ended) or expiring (within the expiring_days window). */
export function TermText({ row }: { row: Pick<InstitutionRow, 'term_expires_at' | 'overdue' | 'expiring'> }) {
  const { t } = useTranslation('institutions');
  if (!row.term_expires_at) return <span className="text-muted">{t('term.none')}</span>;
  return (
    <span>
      {formatDate(row.term_expires_at)} {row.overdue ? <Tag color="error">{t('term.overdue')}</Tag> : row.expiring ? <Tag color="warning">{t('term.expiring')}</Tag> : null}
    </span>
  );
}

/** A generated password, shown this once: the server keeps only its hash. */
export function PasswordOnce({ shown, onClose }: { shown: { username: string; password: string; title: string } | null; onClose: () => void }) {
  const { t } = useTranslation('institutions');
  return (
    <Modal
      open={!!shown}
      title={shown?.title}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose} data-testid="password-once-close">
          {t('once.done')}
        </Button>
      }
      data-testid="password-once"
    >
      <Alert type="warning" showIcon title={t('once.warning')} style={{ marginBottom: 16 }} />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('col.username')}>
          <Typography.Text copyable className="mono" data-testid="password-once-username">
            {shown?.username}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('form.password')}>
          <Typography.Text copyable strong className="mono" data-testid="password-once-value">
            {shown?.password}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
