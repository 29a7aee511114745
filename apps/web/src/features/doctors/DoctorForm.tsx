import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { DOCTOR_STATUSES, doctorFields, type DoctorDetail, type DoctorStatus } from '@app/contract/api/doctors';
import { GENDERS, type Gender } from '@app/contract/api/person';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { useSettings } from '../../lib/settings';
import { useAddDoctor, useEditDoctor } from './api';

export interface DoctorFormValues {
  name: string;
  gender: Gender;
  phone: string;
  title?: string;
  institution_id: number;
  status: DoctorStatus;
}

const NEW_DOCTOR: Partial<DoctorFormValues> = { gender: 'male', status: 'enabled', title: '' };

/** Edit starts from the detail (full phone), never from the masked list row. */
const toFormValues = (d: DoctorDetail): DoctorFormValues => ({ name: d.name, gender: d.gender, phone: d.phone, title: d.title, institution_id: d.institution_id, status: d.status });

export function DoctorForm({ dlg }: { dlg: ReturnType<typeof useFormModal<DoctorDetail>> }) {
  const { t } = useTranslation('doctors');
  const lang = useSettings((s) => s.lang);
  const add = useAddDoctor();
  const edit = useEditDoctor();
  // No `whitespace` key on selects: any key besides `required` makes async-validator check the value as a string.
  const requiredSelect = (field: string): Rule => ({ required: true, message: t('common:form.requiredSelect', { field }) });

  return (
    <FormModal<DoctorFormValues>
      open={dlg.open}
      title={dlg.isEdit ? t('form.editTitle') : t('form.createTitle')}
      initialValues={dlg.record ? toFormValues(dlg.record) : NEW_DOCTOR}
      onClose={dlg.close}
      onSubmit={(v) => {
        const body = { ...v, name: v.name.trim(), phone: v.phone.trim(), title: (v.title ?? '').trim() };
        return dlg.isEdit ? edit.mutateAsync({ ...body, id: dlg.record!.id }) : add.mutateAsync(body);
      }}
      width={600}
      testId="doctor-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('col.name')} rules={fieldRules(doctorFields.name, lang, t('col.name'))}>
            <Input maxLength={limitsOf(doctorFields.name).maxLength} placeholder={t('form.namePlaceholder')} data-testid="doctor-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="gender" label={t('col.gender')} rules={[requiredSelect(t('col.gender'))]}>
            <Radio.Group optionType="button" options={GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="phone" label={t('col.phone')} rules={fieldRules(doctorFields.phone, lang, t('col.phone'))} validateFirst>
            <Input maxLength={limitsOf(doctorFields.phone).maxLength} inputMode="tel" autoComplete="off" placeholder={t('form.phonePlaceholder')} data-testid="doctor-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="title" label={t('col.jobTitle')} rules={fieldRules(doctorFields.title, lang, t('col.jobTitle'))}>
            <Input maxLength={limitsOf(doctorFields.title).maxLength} placeholder={t('form.jobTitlePlaceholder')} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="institution_id" label={t('col.institution')} rules={[requiredSelect(t('col.institution'))]}>
        <InstitutionSelect placeholder={t('form.institutionPlaceholder')} style={{ width: '100%' }} data-testid="doctor-institution" />
      </Form.Item>
      <Form.Item name="status" label={t('col.status')} style={{ marginBottom: 0 }}>
        <Radio.Group options={DOCTOR_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} />
      </Form.Item>
    </FormModal>
  );
}
