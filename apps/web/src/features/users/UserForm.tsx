import Checkbox from 'antd/es/checkbox';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EARLIEST_BIRTH_DATE, GENDERS, idNumberSchema, phoneSchema } from '@app/contract/api/person';
import { USER_LIMITS, userFields, type UserRow } from '@app/contract/api/users';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { contractRule } from '../../components/contract-rule';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { dayjs } from '../../lib/dayjs-locale';
import { useSettings } from '../../lib/settings';
import { useAddUser, useEditUser } from './api';
import { userBody, type UserFormValues } from './person';

const NEW_USER: Partial<UserFormValues> = { gender: 'male' };

/** Edit starts from the list row; phone and ID number start empty (the row only has them masked). */
const toFormValues = (r: UserRow): Partial<UserFormValues> => ({
  name: r.name,
  gender: r.gender,
  birth_date: r.birth_date,
  height_cm: r.height_cm,
  weight_kg: r.weight_kg,
  institution_id: r.institution_id,
});

const MIN_BIRTH = dayjs(EARLIEST_BIRTH_DATE);

/**
 * A phone / ID number field. Create: a plain input. Edit: empty means "keep" (the masked current value
 * is the placeholder), a typed value replaces it, and "Remove" clears the stored one.
 */
function PersonalNumberField(props: {
  name: 'phone' | 'id_number';
  clearName: 'clear_phone' | 'clear_id_number';
  label: string;
  rule: Rule;
  placeholder: string;
  editing: boolean;
  masked: string | null | undefined;
  maxLength: number | undefined;
  testId: string;
}) {
  const { t } = useTranslation('users');
  const form = Form.useFormInstance<UserFormValues>();
  const clear = Form.useWatch(props.clearName, form) === true;
  const input = (
    <Input
      id={`user-form-${props.name}`}
      maxLength={props.maxLength}
      autoComplete="off"
      disabled={clear}
      placeholder={props.editing && props.masked ? props.masked : props.placeholder}
      data-testid={props.testId}
    />
  );
  if (!props.editing) {
    return (
      <Form.Item name={props.name} label={props.label} rules={[props.rule]} htmlFor={`user-form-${props.name}`}>
        {input}
      </Form.Item>
    );
  }
  const hint = clear ? t('form.removeHint') : props.masked ? t('form.keepHint', { masked: props.masked }) : t('form.noneStored');
  return (
    <Form.Item label={props.label} extra={hint} htmlFor={`user-form-${props.name}`}>
      <Flex gap={12} align="center">
        <Form.Item name={props.name} noStyle rules={clear ? [] : [props.rule]} dependencies={[props.clearName]}>
          {input}
        </Form.Item>
        {props.masked ? (
          <Form.Item name={props.clearName} noStyle valuePropName="checked">
            <Checkbox style={{ whiteSpace: 'nowrap' }} data-testid={`${props.testId}-clear`}>
              {t('form.remove')}
            </Checkbox>
          </Form.Item>
        ) : null}
      </Flex>
    </Form.Item>
  );
}

export function UserForm({ dlg }: { dlg: ReturnType<typeof useFormModal<UserRow>> }) {
  const { t } = useTranslation('users');
  const lang = useSettings((s) => s.lang);
  const add = useAddUser();
  const edit = useEditUser();
  const editing = dlg.isEdit;
  // No `whitespace` key on selects: any key besides `required` makes async-validator check the value as a string.
  const requiredSelect = (field: string): Rule => ({ required: true, message: t('common:form.requiredSelect', { field }) });
  const between = (field: string, [min, max]: readonly [number, number]): Rule => ({
    validator: async (_, v: number | null | undefined) => {
      if (v != null && (v < min || v > max)) throw new Error(t('form.between', { field, min, max }));
    },
  });

  return (
    <FormModal<UserFormValues>
      open={dlg.open}
      title={editing ? t('form.editTitle') : t('form.createTitle')}
      initialValues={dlg.record ? toFormValues(dlg.record) : NEW_USER}
      onClose={dlg.close}
      onSubmit={(v) => {
        const body = userBody(v, editing);
        return editing ? edit.mutateAsync({ ...body, id: dlg.record!.id }) : add.mutateAsync(body);
      }}
      width={680}
      testId="user-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('col.name')} rules={fieldRules(userFields.name, lang, t('col.name'))}>
            <Input maxLength={limitsOf(userFields.name).maxLength} placeholder={t('form.namePlaceholder')} data-testid="user-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="gender" label={t('col.gender')} rules={[requiredSelect(t('col.gender'))]}>
            <Radio.Group optionType="button" options={GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="birth_date"
            label={t('col.birthDate')}
            getValueProps={(v: string | null | undefined) => ({ value: v ? dayjs(v) : null })}
            normalize={(d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null)}
          >
            <DatePicker
              style={{ width: '100%' }}
              placeholder={t('form.birthDatePlaceholder')}
              disabledDate={(d) => d.isAfter(dayjs(), 'day') || d.isBefore(MIN_BIRTH, 'day')}
              data-testid="user-birth-date"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="institution_id" label={t('col.institution')} rules={[requiredSelect(t('col.institution'))]}>
            <InstitutionSelect placeholder={t('form.institutionPlaceholder')} style={{ width: '100%' }} data-testid="user-institution" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <PersonalNumberField
            name="phone"
            clearName="clear_phone"
            label={t('col.phone')}
            maxLength={limitsOf(phoneSchema).maxLength}
            testId="user-phone"
            rule={contractRule(phoneSchema, lang, t('form.badPhone'))}
            placeholder={t('form.phonePlaceholder')}
            editing={editing}
            masked={dlg.record?.phone}
          />
        </Col>
        <Col xs={24} sm={12}>
          <PersonalNumberField
            name="id_number"
            clearName="clear_id_number"
            label={t('col.idNumber')}
            maxLength={limitsOf(idNumberSchema).maxLength}
            testId="user-id-number"
            rule={contractRule(idNumberSchema, lang, t('form.badIdNumber'))}
            placeholder={t('form.idNumberPlaceholder')}
            editing={editing}
            masked={dlg.record?.id_number}
          />
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="height_cm" label={t('col.height')} rules={[between(t('col.height'), USER_LIMITS.heightCm)]} style={{ marginBottom: 0 }}>
            <InputNumber min={USER_LIMITS.heightCm[0]} max={USER_LIMITS.heightCm[1]} precision={1} suffix="cm" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="weight_kg" label={t('col.weight')} rules={[between(t('col.weight'), USER_LIMITS.weightKg)]} style={{ marginBottom: 0 }}>
            <InputNumber min={USER_LIMITS.weightKg[0]} max={USER_LIMITS.weightKg[1]} precision={1} suffix="kg" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
