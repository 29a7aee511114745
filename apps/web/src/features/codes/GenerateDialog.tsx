import { useState } from 'react';
import Alert from 'antd/es/alert';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CODE_LIMITS, CODE_SCOPES, codeGenerateFields, type CodeGenerateAnswer, type CodeScope } from '@app/contract/api/codes';
import { FormModal } from '../../components/FormModal';
import { useEndpoint } from '../../components/list';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { Access } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { usePackageOptions, useGenerateCodes } from './api';
import { downloadFile } from '../../lib/download';

export interface GenerateValues {
  scope: CodeScope;
  grant: 'days' | 'package';
  days?: number | null;
  package_id?: number | null;
  count: number | null;
  valid_until?: Dayjs | null;
  remark?: string;
}

const NEW_BATCH: GenerateValues = { scope: 'institution', grant: 'days', days: 365, count: 10, remark: '' };

/** The wire body: institution codes grant days; device codes days or a package. */
export function toGenerateBody(v: GenerateValues) {
  const byPackage = v.scope === 'device' && v.grant === 'package';
  return {
    scope: v.scope,
    days: byPackage ? null : (v.days ?? null),
    package_id: byPackage ? (v.package_id ?? null) : null,
    count: v.count ?? 0,
    valid_until: v.valid_until ? v.valid_until.toISOString() : null,
    remark: (v.remark ?? '').trim(),
  };
}

/** "Generate codes": the form, then the batch's codes once (copy, CSV, Excel). */
export function GenerateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('codes');
  const lang = useSettings((s) => s.lang);
  const [form] = Form.useForm<GenerateValues>();
  const generate = useGenerateCodes();
  const [result, setResult] = useState<CodeGenerateAnswer | null>(null);
  const scope = Form.useWatch('scope', form) ?? 'institution';
  const grant = Form.useWatch('grant', form) ?? 'days';
  const packages = usePackageOptions(open && scope === 'device' && grant === 'package');

  const between = (field: string, min: number, max: number): Rule => ({
    validator: async (_, value) => {
      if (value == null || value === '') return;
      if (value < min || value > max) throw new Error(t('generate.between', { field, min: formatNumber(min, lang), max: formatNumber(max, lang) }));
    },
  });
  const required = (field: string): Rule => ({ required: true, message: t('common:form.required', { field }) });

  return (
    <>
      <FormModal<GenerateValues>
        open={open}
        title={t('generate.title')}
        initialValues={NEW_BATCH}
        onClose={onClose}
        form={form as FormInstance<GenerateValues>}
        okText={t('generate.submit')}
        testId="code-generate"
        onSubmit={async (v) => {
          const answer = await generate.mutateAsync(toGenerateBody(v));
          setResult(answer);
        }}
      >
        <Form.Item name="scope" label={t('generate.scope')} extra={t(`generate.scopeHelp.${scope}`)} rules={[required(t('generate.scope'))]}>
          <Radio.Group optionType="button" buttonStyle="solid" options={CODE_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))} data-testid="code-scope" />
        </Form.Item>
        {scope === 'device' ? (
          <Form.Item name="grant" label={t('generate.grantKind')}>
            <Radio.Group
              options={[
                { value: 'days', label: t('generate.grantDays') },
                { value: 'package', label: t('generate.grantPackage') },
              ]}
              data-testid="code-grant"
            />
          </Form.Item>
        ) : null}
        {scope === 'device' && grant === 'package' ? (
          <Form.Item key="package" name="package_id" label={t('generate.package')} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('generate.package') }) }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={packages.isFetching}
              placeholder={t('generate.packagePlaceholder')}
              options={(packages.data?.list ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.kind === 'count' ? t('uses', { n: p.uses }) : t('days', { n: p.days })})` }))}
              data-testid="code-package"
            />
          </Form.Item>
        ) : (
          <Form.Item key="days" name="days" label={t('generate.days')} rules={[required(t('generate.days')), between(t('generate.days'), 1, CODE_LIMITS.maxDays)]}>
            <InputNumber min={1} max={CODE_LIMITS.maxDays} precision={0} style={{ width: '100%' }} data-testid="code-days" />
          </Form.Item>
        )}
        <Form.Item
          name="count"
          label={t('generate.count')}
          extra={t('generate.countHelp', { max: formatNumber(CODE_LIMITS.maxCount, lang) })}
          rules={[required(t('generate.count')), between(t('generate.count'), 1, CODE_LIMITS.maxCount)]}
        >
          <InputNumber min={1} max={CODE_LIMITS.maxCount} precision={0} style={{ width: '100%' }} data-testid="code-count" />
        </Form.Item>
        <Form.Item
          name="valid_until"
          label={t('generate.validUntil')}
          extra={t('generate.validUntilHelp')}
          rules={[
            {
              validator: async (_, value: Dayjs | null | undefined) => {
                if (value && value.valueOf() <= Date.now()) throw new Error(t('generate.validUntilHelp'));
              },
            },
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.endOf('day').valueOf() < Date.now()} data-testid="code-valid-until" />
        </Form.Item>
        <Form.Item name="remark" label={t('generate.remark')} rules={fieldRules(codeGenerateFields.remark, lang, t('generate.remark'))} style={{ marginBottom: 0 }}>
          <Input maxLength={limitsOf(codeGenerateFields.remark).maxLength} showCount placeholder={t('generate.remarkPlaceholder')} data-testid="code-remark" />
        </Form.Item>
      </FormModal>
      <GeneratedCodes result={result} onClose={() => setResult(null)} />
    </>
  );
}

/** The batch just made: every code, to copy or download. */
function GeneratedCodes({ result, onClose }: { result: CodeGenerateAnswer | null; onClose: () => void }) {
  const { t } = useTranslation('codes');
  const { message } = App.useApp();
  const lang = useSettings((s) => s.lang);
  // The answer names the batch by number; its id (for the export) comes from the batch list.
  const batch = useEndpoint('codes.batches', { keyword: result?.batch_no ?? '', limit: 1 }, { enabled: !!result });
  const batchId = batch.data?.list.find((b) => b.batch_no === result?.batch_no)?.id;
  const text = result?.codes.join('\n') ?? '';
  return (
    <Modal
      open={!!result}
      title={result ? t('result.title', { batch: result.batch_no, n: formatNumber(result.codes.length, lang) }) : ''}
      onCancel={onClose}
      width={560}
      destroyOnHidden
      mask={{ closable: false }}
      data-testid="code-result"
      footer={
        <Space wrap>
          <Button
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => message.success(t('result.copied')));
            }}
            data-testid="code-result-copy"
          >
            {t('result.copy')}
          </Button>
          {batchId ? (
            <Access sign="activation:export">
              <Button onClick={() => void downloadFile('codes.exportBatch', { id: batchId, format: 'csv' }, `${result?.batch_no}.csv`)}>{t('action.exportCsv')}</Button>
              <Button onClick={() => void downloadFile('codes.exportBatch', { id: batchId, format: 'xlsx' }, `${result?.batch_no}.xlsx`)}>{t('action.exportXlsx')}</Button>
            </Access>
          ) : null}
          <Button type="primary" onClick={onClose} data-testid="code-result-close">
            {t('result.close')}
          </Button>
        </Space>
      }
    >
      <Alert type="warning" showIcon title={t('result.warning')} style={{ marginBottom: 12 }} />
      <Input.TextArea className="mono" readOnly value={text} autoSize={{ minRows: 4, maxRows: 14 }} data-testid="code-result-codes" aria-label={t('col.code')} />
    </Modal>
  );
}
