import { useState } from 'react';
import App from 'antd/es/app';
import Alert from 'antd/es/alert';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { childGrade, INSTITUTION_LIMITS, INSTITUTION_STATUSES, institutionFields, institutionUsername, type InstitutionRow, type InstitutionStatus } from '@app/contract/api/institutions';
import { FormModal } from '../../components/FormModal';
import { RegionCascader } from '../../components/RegionCascader';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { dayjs } from '../../lib/dayjs-locale';
import { useSession } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { useAddInstitution, useEditInstitution } from './api';
import { GradeTag, PasswordOnce } from './parts';

/** Create (under `parent`: admins any row or none; an institution its own row) or edit a row. */
export type FormTarget = { mode: 'create'; parent: InstitutionRow | null } | { mode: 'edit'; row: InstitutionRow };

interface Values {
  name: string;
  username?: string;
  password?: string;
  contact_name: string;
  phone: string;
  region?: string[];
  address?: string;
  term?: string | null;
  status?: InstitutionStatus;
}

/** The end of the chosen day, in the operator's time zone. */
const endOfDay = (date: string | null | undefined) => (date ? dayjs(date).endOf('day').toISOString() : null);

export function InstitutionForm({ target, onClose }: { target: FormTarget | null; onClose: () => void }) {
  const { t } = useTranslation('institutions');
  const { message } = App.useApp();
  const lang = useSettings((s) => s.lang);
  const isAdmin = useSession((s) => s.isAdmin);
  const add = useAddInstitution();
  const edit = useEditInstitution();
  const [shown, setShown] = useState<{ username: string; password: string; title: string } | null>(null);
  const requiredRegion: Rule = { required: true, type: 'array', message: t('common:form.requiredSelect', { field: t('col.region') }) };

  const creating = target?.mode === 'create';
  const parent = target?.mode === 'create' ? target.parent : null;
  const row = target?.mode === 'edit' ? target.row : null;
  // An institution's "create" is always under itself: the parent is the caller (the server says so too).
  const grade = creating ? (parent ? childGrade(parent.grade) : isAdmin ? 1 : null) : row?.grade;

  const initial: Partial<Values> = row
    ? { name: row.name, contact_name: row.contact_name, phone: row.phone, region: row.region.length ? row.region : undefined, address: row.address, term: row.term_expires_at }
    : { status: 'enabled', term: parent?.term_expires_at ?? null, region: parent?.region.length ? parent.region : undefined };

  const submit = async (v: Values) => {
    const common = { name: v.name.trim(), contact_name: v.contact_name.trim(), phone: v.phone.trim(), region: v.region ?? [], address: (v.address ?? '').trim() };
    const term = isAdmin ? { term_expires_at: v.term ?? null } : {};
    if (row) {
      await edit.mutateAsync({ id: row.id, ...common, ...term });
      return;
    }
    const username = (v.username ?? '').trim();
    const res = await add.mutateAsync({ ...common, ...term, username, password: v.password || undefined, status: v.status ?? 'enabled', ...(isAdmin && parent ? { parent_id: parent.id } : {}) });
    if (res.password) setShown({ username, password: res.password, title: t('once.createdTitle', { name: common.name }) });
    else void message.success(t('created'));
  };

  const title = row ? t('form.editTitle', { name: row.name }) : parent ? t('form.createChildTitle', { name: parent.name }) : isAdmin ? t('form.createAgentTitle') : t('form.createOwnChildTitle');

  return (
    <>
      <FormModal<Values> open={!!target} title={title} initialValues={initial} onClose={onClose} onSubmit={submit} variant="drawer" width={620} testId="institution-form">
        {grade ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={
              <span>
                {t('form.gradeNote')} <GradeTag grade={grade} />
              </span>
            }
          />
        ) : null}
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('col.name')} rules={fieldRules(institutionFields.name, lang, t('col.name'))}>
              <Input maxLength={INSTITUTION_LIMITS.nameLength} data-testid="institution-form-name" />
            </Form.Item>
          </Col>
          {creating ? (
            <Col xs={24} sm={12}>
              <Form.Item name="username" label={t('col.username')} rules={fieldRules(institutionUsername, lang, t('col.username'))} extra={t('form.usernameHint')}>
                <Input maxLength={INSTITUTION_LIMITS.usernameMax} autoComplete="off" data-testid="institution-form-username" />
              </Form.Item>
            </Col>
          ) : null}
        </Row>
        {creating ? (
          <Form.Item name="password" label={t('form.password')} extra={t('form.passwordHint')} rules={[{ max: INSTITUTION_LIMITS.passwordMax }]}>
            <Input.Password autoComplete="new-password" placeholder={t('form.passwordPlaceholder')} data-testid="institution-form-password" />
          </Form.Item>
        ) : null}
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="contact_name" label={t('col.contactName')} rules={fieldRules(institutionFields.contact_name, lang, t('col.contactName'))}>
              <Input maxLength={limitsOf(institutionFields.contact_name).maxLength} data-testid="institution-form-contact" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="phone" label={t('col.phone')} rules={fieldRules(institutionFields.phone, lang, t('col.phone'))} validateFirst>
              <Input inputMode="tel" autoComplete="off" data-testid="institution-form-phone" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="region" label={t('col.region')} rules={[requiredRegion]}>
          <RegionCascader placeholder={t('form.regionPlaceholder')} style={{ width: '100%' }} data-testid="institution-form-region" />
        </Form.Item>
        <Form.Item name="address" label={t('col.address')} rules={fieldRules(institutionFields.address, lang, t('col.address'))}>
          <Input maxLength={INSTITUTION_LIMITS.addressLength} placeholder={t('form.addressPlaceholder')} data-testid="institution-form-address" />
        </Form.Item>
        <Row gutter={16}>
          {isAdmin ? (
            <Col xs={24} sm={12}>
              <Form.Item
                name="term"
                label={t('col.term')}
                extra={t('form.termHint')}
                getValueProps={(v: string | null | undefined) => ({ value: v ? dayjs(v) : null })}
                normalize={(d: Dayjs | null) => endOfDay(d ? d.format('YYYY-MM-DD') : null)}
              >
                <DatePicker style={{ width: '100%' }} placeholder={t('term.none')} data-testid="institution-form-term" />
              </Form.Item>
            </Col>
          ) : null}
          {creating ? (
            <Col xs={24} sm={12}>
              <Form.Item name="status" label={t('col.status')}>
                <Radio.Group options={INSTITUTION_STATUSES.map((s) => ({ value: s, label: t(`statusName.${s}`) }))} />
              </Form.Item>
            </Col>
          ) : null}
        </Row>
        {creating && !isAdmin ? <Alert type="info" title={t('form.termInherited')} /> : null}
      </FormModal>
      <PasswordOnce shown={shown} onClose={() => setShown(null)} />
    </>
  );
}
