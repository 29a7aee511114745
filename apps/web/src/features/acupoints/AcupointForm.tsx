import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { ACUPOINT_MERIDIANS, MASTER_LIMITS, type AcupointMeridian, type MasterStatus } from '@app/contract/api/meridians';
import type { AcupointRow } from '@app/contract/api/acupoints';
import type { L10n } from '@app/contract/i18n';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { cleanL10n, emptyL10n, useText } from '../../components/l10n-text';
import { L10nFields } from '../../components/L10nFields';
import { ImageUpload } from '../../components/ImageUpload';
import { useMeridianName } from '../../components/meridian';
import { useAddAcupoint, useEditAcupoint } from './api';
import { ACUPOINT_CODE_MAX, ACUPOINT_CODE_RE, normalizeCode } from './rules';

interface AcupointFormValues {
  code: string;
  meridian: AcupointMeridian;
  name: L10n;
  location: L10n;
  indications: L10n;
  is_measurement_point: boolean;
  is_treatment_point: boolean;
  image: string;
  sort: number | null;
  status: MasterStatus;
}

const toValues = (r: AcupointRow): AcupointFormValues => ({
  code: r.code,
  meridian: r.meridian,
  name: r.name,
  location: r.location,
  indications: r.indications,
  is_measurement_point: r.is_measurement_point,
  is_treatment_point: r.is_treatment_point,
  image: r.image,
  sort: r.sort,
  status: r.status,
});

const NEW: Partial<AcupointFormValues> = {
  code: '',
  name: emptyL10n(),
  location: emptyL10n(),
  indications: emptyL10n(),
  is_measurement_point: false,
  is_treatment_point: true,
  image: '',
  sort: 0,
  status: 1,
};

export function AcupointForm({ dlg }: { dlg: ReturnType<typeof useFormModal<AcupointRow>> }) {
  const { t } = useTranslation('acupoints');
  const text = useText();
  const { label: meridianLabel } = useMeridianName();
  const add = useAddAcupoint();
  const edit = useEditAcupoint();

  const submit = async (v: AcupointFormValues) => {
    const body = {
      code: String(normalizeCode(v.code)),
      meridian: v.meridian,
      name: cleanL10n(v.name),
      location: cleanL10n(v.location),
      indications: cleanL10n(v.indications),
      is_measurement_point: !!v.is_measurement_point,
      is_treatment_point: !!v.is_treatment_point,
      image: v.image ?? '',
      sort: v.sort ?? 0,
      status: v.status,
    };
    if (dlg.isEdit) await edit.mutateAsync({ ...body, id: dlg.record!.id });
    else await add.mutateAsync(body);
  };

  return (
    <FormModal<AcupointFormValues>
      open={dlg.open}
      variant="drawer"
      width={Math.min(760, window.innerWidth)}
      title={dlg.isEdit ? t('form.editTitle', { name: `${dlg.record!.code} ${text(dlg.record!.name)}` }) : t('form.createTitle')}
      initialValues={dlg.record ? toValues(dlg.record) : NEW}
      onClose={dlg.close}
      onSubmit={submit}
      testId="acupoint-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={16}>
          <Row gutter={16}>
            <Col xs={24} sm={10}>
              <Form.Item
                name="code"
                label={t('col.code')}
                normalize={normalizeCode}
                tooltip={t('form.codeHint')}
                rules={[
                  { required: true, message: t('common:form.required', { field: t('col.code') }) },
                  { pattern: ACUPOINT_CODE_RE, message: t('form.codeFormat') },
                ]}
              >
                <Input maxLength={ACUPOINT_CODE_MAX} className="mono" autoComplete="off" placeholder="LU9" data-testid="acupoint-code" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={14}>
              <Form.Item name="meridian" label={t('col.meridian')} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('col.meridian') }) }]}>
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  options={ACUPOINT_MERIDIANS.map((m) => ({ value: m, label: meridianLabel(m) }))}
                  placeholder={t('form.meridianPlaceholder')}
                  data-testid="acupoint-meridian"
                />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item name="is_measurement_point" label={t('flag.measurement')} valuePropName="checked" tooltip={t('form.measurementHint')}>
                <Switch data-testid="acupoint-measurement" />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item name="is_treatment_point" label={t('flag.treatment')} valuePropName="checked" tooltip={t('form.treatmentHint')}>
                <Switch data-testid="acupoint-treatment" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="status" label={t('col.status')}>
                <Radio.Group
                  optionType="button"
                  buttonStyle="solid"
                  options={[
                    { value: 1, label: t('common:status.enabled') },
                    { value: 0, label: t('common:status.disabled') },
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="image" label={t('col.image')}>
            <ImageUpload variant="card" testId="acupoint-image" />
          </Form.Item>
        </Col>
      </Row>
      <L10nFields name="name" label={t('col.name')} required testId="acupoint-name" />
      <L10nFields name="location" label={t('form.location')} textarea rows={2} testId="acupoint-location" />
      <L10nFields name="indications" label={t('form.indications')} textarea rows={2} testId="acupoint-indications" />
      <Form.Item name="sort" label={t('col.sort')} extra={t('form.sortHint')}>
        <InputNumber min={0} max={MASTER_LIMITS.sortMax} precision={0} style={{ width: 160 }} />
      </Form.Item>
    </FormModal>
  );
}
