import { useMemo } from 'react';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import TreeSelect from 'antd/es/tree-select';
import { useTranslation } from 'react-i18next';
import { MASTER_LIMITS, type MasterStatus } from '@app/contract/api/meridians';
import { DISEASE_LIMITS, type DiseaseRow, type DiseaseTreeNode, type MeridianCondition } from '@app/contract/api/diseases';
import type { L10n } from '@app/contract/i18n';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { isApiError } from '../../lib/api';
import { cleanL10n, emptyL10n, useText } from '../../components/l10n-text';
import { L10nFields } from '../../components/L10nFields';
import { useAcupointOptions, useSystemOptions } from '../../components/master-options';
import { useAddDisease, useEditDisease } from './api';
import { PatternEditor } from './PatternEditor';

interface DiseaseFormValues {
  category_id: number;
  name: L10n;
  description: L10n;
  advice: L10n;
  system_ids: number[];
  acupoint_ids: number[];
  pattern: Partial<MeridianCondition>[];
  sort: number | null;
  status: MasterStatus;
}

const toValues = (r: DiseaseRow): DiseaseFormValues => ({
  category_id: r.category_id,
  name: r.name,
  description: r.description,
  advice: r.advice,
  system_ids: r.system_ids,
  acupoint_ids: r.acupoint_ids,
  pattern: r.pattern,
  sort: r.sort,
  status: r.status,
});

export function DiseaseForm({ dlg, categories, defaultCategory }: { dlg: ReturnType<typeof useFormModal<DiseaseRow>>; categories: DiseaseTreeNode[]; defaultCategory: number | null }) {
  const { t } = useTranslation('diseases');
  const text = useText();
  const [form] = Form.useForm<DiseaseFormValues>();
  const systems = useSystemOptions();
  const acupoints = useAcupointOptions();
  const add = useAddDisease();
  const edit = useEditDisease();

  const systemTree = useMemo(
    () =>
      (systems.data ?? []).map((b) => ({
        value: b.id,
        title: text(b.name),
        children: b.children.map((c) => ({ value: c.id, title: text(c.name) })),
      })),
    [systems.data, text],
  );
  const acupointOptions = useMemo(() => (acupoints.data ?? []).map((a) => ({ value: a.id, label: `${a.code} · ${text(a.name)}` })), [acupoints.data, text]);

  const initial: Partial<DiseaseFormValues> = dlg.record
    ? toValues(dlg.record)
    : {
        category_id: defaultCategory ?? undefined,
        name: emptyL10n(),
        description: emptyL10n(),
        advice: emptyL10n(),
        system_ids: [],
        acupoint_ids: [],
        pattern: [{ status: 'excess' }],
        sort: 0,
        status: 1,
      };

  const submit = async (v: DiseaseFormValues) => {
    const body = {
      category_id: v.category_id,
      name: cleanL10n(v.name),
      description: cleanL10n(v.description),
      advice: cleanL10n(v.advice),
      system_ids: v.system_ids ?? [],
      acupoint_ids: v.acupoint_ids ?? [],
      pattern: (v.pattern ?? []) as MeridianCondition[],
      sort: v.sort ?? 0,
      status: v.status,
    };
    try {
      if (dlg.isEdit) await edit.mutateAsync({ ...body, id: dlg.record!.id });
      else await add.mutateAsync(body);
    } catch (err) {
      // "pattern.1" is about a row: show it under that row's meridian.
      if (isApiError(err)) {
        const rows = Object.entries(err.fields).flatMap(([k, msg]) => {
          const m = /^pattern\.(\d+)$/.exec(k);
          return m ? [{ name: ['pattern', Number(m[1]), 'meridian'], errors: [msg] }] : [];
        });
        if (rows.length) form.setFields(rows as never);
      }
      throw err;
    }
  };

  return (
    <FormModal<DiseaseFormValues>
      open={dlg.open}
      form={form}
      variant="drawer"
      width={Math.min(860, window.innerWidth)}
      title={dlg.isEdit ? t('form.editTitle', { name: text(dlg.record!.name) }) : t('form.createTitle')}
      initialValues={initial}
      onClose={dlg.close}
      onSubmit={submit}
      testId="disease-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="category_id" label={t('col.category')} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('col.category') }) }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('form.categoryPlaceholder')}
              options={categories.map((c) => ({ value: c.id, label: text(c.name) }))}
              data-testid="disease-category"
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
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
        <Col xs={12} sm={6}>
          <Form.Item name="sort" label={t('col.sort')}>
            <InputNumber min={0} max={MASTER_LIMITS.sortMax} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <L10nFields name="name" label={t('col.name')} required testId="disease-name" />
      <Form.Item label={t('form.pattern')} required extra={t('form.patternHint')}>
        <PatternEditor />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="system_ids" label={t('col.systems')} extra={t('form.systemsHint')}>
            <TreeSelect
              multiple
              allowClear
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeData={systemTree}
              loading={systems.isFetching}
              placeholder={t('form.systemsPlaceholder')}
              maxCount={DISEASE_LIMITS.maxRelated}
              style={{ width: '100%' }}
              data-testid="disease-systems"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="acupoint_ids" label={t('col.acupoints')} extra={t('form.acupointsHint')}>
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={acupointOptions}
              loading={acupoints.isFetching}
              placeholder={t('form.acupointsPlaceholder')}
              maxCount={DISEASE_LIMITS.maxRelated}
              data-testid="disease-acupoints"
            />
          </Form.Item>
        </Col>
      </Row>
      <L10nFields name="description" label={t('form.description')} textarea testId="disease-description" />
      <L10nFields name="advice" label={t('form.advice')} textarea testId="disease-advice" />
    </FormModal>
  );
}
