import Alert from 'antd/es/alert';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { branchApplyBody } from '@app/contract/api/branches';
import { INSTITUTION_LIMITS } from '@app/contract/api/institutions';
import { FormModal } from '../../components/FormModal';
import { RegionCascader } from '../../components/RegionCascader';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { useSettings } from '../../lib/settings';
import { useApply } from './api';

interface Values {
  name: string;
  contact_name: string;
  phone: string;
  region?: string[];
  address?: string;
  username: string;
}

const fields = branchApplyBody.shape;

/** An institution applies for a branch of its own: the platform then approves or rejects it. */
export function ApplyForm({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('branches');
  const lang = useSettings((s) => s.lang);
  const apply = useApply(t('applied'));
  const requiredRegion: Rule = { required: true, type: 'array', message: t('common:form.requiredSelect', { field: t('col.region') }) };

  return (
    <FormModal<Values>
      open={open}
      title={t('applyTitle')}
      onClose={onClose}
      onSubmit={(v) =>
        apply.mutateAsync({ name: v.name.trim(), contact_name: v.contact_name.trim(), phone: v.phone.trim(), region: v.region ?? [], address: (v.address ?? '').trim(), username: v.username.trim() })
      }
      okText={t('submit')}
      width={600}
      testId="branch-apply-form"
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('applyHelp')} />
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('col.name')} rules={fieldRules(fields.name, lang, t('col.name'))}>
            <Input maxLength={INSTITUTION_LIMITS.nameLength} data-testid="branch-form-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="username" label={t('col.username')} rules={fieldRules(fields.username, lang, t('col.username'))} extra={t('usernameHint')}>
            <Input maxLength={INSTITUTION_LIMITS.usernameMax} autoComplete="off" data-testid="branch-form-username" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="contact_name" label={t('col.contactName')} rules={fieldRules(fields.contact_name, lang, t('col.contactName'))}>
            <Input maxLength={limitsOf(fields.contact_name).maxLength} data-testid="branch-form-contact" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="phone" label={t('col.phone')} rules={fieldRules(fields.phone, lang, t('col.phone'))} validateFirst>
            <Input inputMode="tel" autoComplete="off" data-testid="branch-form-phone" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="region" label={t('col.region')} rules={[requiredRegion]}>
        <RegionCascader placeholder={t('regionPlaceholder')} style={{ width: '100%' }} data-testid="branch-form-region" />
      </Form.Item>
      <Form.Item name="address" label={t('col.address')} rules={fieldRules(fields.address, lang, t('col.address'))} style={{ marginBottom: 0 }}>
        <Input maxLength={INSTITUTION_LIMITS.addressLength} data-testid="branch-form-address" />
      </Form.Item>
    </FormModal>
  );
}
