import { useState } from 'react';
import App from 'antd/es/app';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { REJECT_REASON_MAX, type BranchApplication } from '@app/contract/api/branches';
import { INSTITUTION_LIMITS } from '@app/contract/api/institutions';
import { FormModal } from '../../components/FormModal';
import { RegionName } from '../../components/RegionName';
import { useApprove, useReject } from './api';

/** What an approval created, with the generated password: shown this once. */
interface Created {
  name: string;
  username: string;
  password: string;
}

function ApplicationSummary({ application: a }: { application: BranchApplication }) {
  const { t } = useTranslation('branches');
  return (
    <Descriptions column={1} bordered size="small" style={{ marginBottom: 16 }}>
      <Descriptions.Item label={t('col.name')}>{a.name}</Descriptions.Item>
      <Descriptions.Item label={t('col.applicant')}>{a.applicant_name}</Descriptions.Item>
      <Descriptions.Item label={t('col.username')}>
        <span className="mono">{a.username}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('col.region')}>
        <RegionName codes={a.region} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** Approve: the branch and its login are created under the applicant; a generated password is shown once. */
export function ApproveDialog({ application, onClose }: { application: BranchApplication | null; onClose: () => void }) {
  const { t } = useTranslation('branches');
  const { message } = App.useApp();
  const approve = useApprove();
  const [created, setCreated] = useState<Created | null>(null);

  return (
    <>
      <FormModal<{ password?: string }>
        open={!!application}
        title={t('approveTitle')}
        onClose={onClose}
        onSubmit={async (v) => {
          const a = application!;
          const res = await approve.mutateAsync({ id: a.id, password: v.password || undefined });
          if (res.password) setCreated({ name: a.name, username: res.username, password: res.password });
          else void message.success(t('approved'));
        }}
        okText={t('action.approve')}
        width={520}
        testId="branch-approve"
      >
        {application ? <ApplicationSummary application={application} /> : null}
        <Form.Item name="password" label={t('password')} extra={t('passwordHint')} rules={[{ max: INSTITUTION_LIMITS.passwordMax }]} style={{ marginBottom: 0 }}>
          <Input.Password autoComplete="new-password" placeholder={t('passwordPlaceholder')} data-testid="branch-approve-password" />
        </Form.Item>
      </FormModal>
      <Modal
        open={!!created}
        title={t('createdTitle', { name: created?.name ?? '' })}
        onCancel={() => setCreated(null)}
        mask={{ closable: false }}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="password-once-close">
            {t('copied')}
          </Button>
        }
        data-testid="password-once"
      >
        <Alert type="warning" showIcon title={t('onceWarning')} style={{ marginBottom: 16 }} />
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('col.username')}>
            <Typography.Text copyable className="mono" data-testid="password-once-username">
              {created?.username}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('password')}>
            <Typography.Text copyable strong className="mono" data-testid="password-once-value">
              {created?.password}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Modal>
    </>
  );
}

/** Reject, with the reason the applicant reads. */
export function RejectDialog({ application, onClose }: { application: BranchApplication | null; onClose: () => void }) {
  const { t } = useTranslation('branches');
  const reject = useReject(t('rejected'));
  return (
    <FormModal<{ reason: string }>
      open={!!application}
      title={t('rejectTitle')}
      onClose={onClose}
      onSubmit={(v) => reject.mutateAsync({ id: application!.id, reason: v.reason.trim() })}
      okText={t('action.reject')}
      width={520}
      testId="branch-reject"
    >
      {application ? <ApplicationSummary application={application} /> : null}
      <Form.Item name="reason" label={t('reason')} rules={[{ required: true, whitespace: true, message: t('reasonRequired') }, { max: REJECT_REASON_MAX }]} style={{ marginBottom: 0 }}>
        <Input.TextArea rows={3} maxLength={REJECT_REASON_MAX} showCount placeholder={t('reasonPlaceholder')} data-testid="branch-reject-reason" />
      </Form.Item>
    </FormModal>
  );
}
