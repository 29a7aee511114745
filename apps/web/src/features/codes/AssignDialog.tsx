import Form from 'antd/es/form';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { CodeBatchRow } from '@app/contract/api/codes';
import { FormModal } from '../../components/FormModal';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { withFeedback } from '../../lib/feedback';
import { useAssignCodes } from './api';

interface AssignValues {
  institution_id?: number | null;
}

/** Hands a batch's unused codes to an institution to sell (empty: back to the platform). */
export function AssignDialog({ batch, onClose }: { batch: CodeBatchRow | null; onClose: () => void }) {
  const { t } = useTranslation('codes');
  const assign = useAssignCodes();
  return (
    <FormModal<AssignValues>
      open={!!batch}
      title={batch ? t('assign.title', { batch: batch.batch_no }) : ''}
      initialValues={{ institution_id: batch?.owner_institution_id ?? undefined }}
      onClose={onClose}
      testId="code-assign"
      onSubmit={async (v) => {
        const { count } = await assign.mutateAsync({ id: batch!.id, institution_id: v.institution_id ?? null });
        withFeedback(({ message }) => {
          void message.success(t('assign.done', { n: count }));
        });
      }}
    >
      <Typography.Paragraph type="secondary">{t('assign.help')}</Typography.Paragraph>
      <Form.Item name="institution_id" label={t('assign.institution')} style={{ marginBottom: 0 }}>
        <InstitutionSelect placeholder={t('assign.placeholder')} style={{ width: '100%' }} data-testid="code-assign-institution" />
      </Form.Item>
    </FormModal>
  );
}
