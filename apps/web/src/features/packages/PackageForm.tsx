import { useMemo } from 'react';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { PACKAGE_KINDS, PACKAGE_LIMITS, packageFields, type PackageKind, type PackageRow } from '@app/contract/api/packages';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { isApiError } from '../../lib/api';
import { centsToDecimal, CURRENCY, decimalToCents, formatMoney, formatNumber } from '../../lib/money';
import { LANG_TAGS } from '../../lib/lang';
import { useSettings } from '../../lib/settings';
import { useAddPackage, useEditPackage } from './api';
import { bpToPercent, commissionCents, formatBp, percentToBp } from './units';

/** The form edits yuan and percent (decimal text, exact); the wire carries cents and basis points. */
export interface PackageFormValues {
  name: string;
  kind: PackageKind;
  uses?: number | null;
  days?: number | null;
  price: string | null;
  rate_l1: string | null;
  rate_l2: string | null;
  sort_order: number | null;
  description?: string;
  /** Create only (edit changes status through the list's switch). */
  on_sale?: boolean;
}

/** Wire field -> form field, for server messages (`datas.fields`). */
const SERVER_FIELDS: Record<string, keyof PackageFormValues> = {
  price_cents: 'price',
  commission_rate_l1_bp: 'rate_l1',
  commission_rate_l2_bp: 'rate_l2',
};

export function toFormValues(row: PackageRow): PackageFormValues {
  return {
    name: row.name,
    kind: row.kind,
    uses: row.uses,
    days: row.days,
    price: centsToDecimal(row.price_cents),
    rate_l1: bpToPercent(row.commission_rate_l1_bp),
    rate_l2: bpToPercent(row.commission_rate_l2_bp),
    sort_order: row.sort_order,
    description: row.description,
  };
}

const NEW_PACKAGE: PackageFormValues = { name: '', kind: 'count', price: null, rate_l1: '0', rate_l2: '0', sort_order: 0, description: '', on_sale: false };

/** The wire body from the form values: integer cents and basis points, only the kind's quantity. */
export function toBody(v: PackageFormValues) {
  return {
    name: v.name.trim(),
    kind: v.kind,
    uses: v.kind === 'count' ? (v.uses ?? null) : null,
    days: v.kind === 'time' ? (v.days ?? null) : null,
    price_cents: decimalToCents(v.price) ?? 0,
    commission_rate_l1_bp: percentToBp(v.rate_l1) ?? 0,
    commission_rate_l2_bp: percentToBp(v.rate_l2) ?? 0,
    sort_order: v.sort_order ?? 0,
    description: (v.description ?? '').trim(),
  };
}

/** The currency sign as the language writes it ("¥", "CN¥"…). */
function currencySign(lang: keyof typeof LANG_TAGS) {
  return new Intl.NumberFormat(LANG_TAGS[lang], { style: 'currency', currency: CURRENCY }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? '¥';
}

export function PackageForm({ dlg, form }: { dlg: ReturnType<typeof useFormModal<PackageRow>>; form: FormInstance<PackageFormValues> }) {
  const { t } = useTranslation('packages');
  const lang = useSettings((s) => s.lang);
  const add = useAddPackage();
  const edit = useEditPackage();
  const kind = Form.useWatch('kind', form) ?? 'count';
  const rateL1 = Form.useWatch('rate_l1', form);
  const rateL2 = Form.useWatch('rate_l2', form);
  const price = Form.useWatch('price', form);
  const sign = useMemo(() => currencySign(lang), [lang]);

  const required = (field: string): Rule => ({ required: true, message: t('common:form.required', { field }) });
  const between = (
    field: string,
    min: number,
    max: number,
    toInt: (v: unknown) => number | null = (v) => (v == null || v === '' ? null : Number(v)),
    show = (n: number) => formatNumber(n, lang),
  ): Rule => ({
    validator: async (_, value) => {
      const n = toInt(value);
      if (n == null) return;
      if (n < min || n > max) throw new Error(t('form.between', { field, min: show(min), max: show(max) }));
    },
  });
  const totalBp = (percentToBp(rateL1) ?? 0) + (percentToBp(rateL2) ?? 0);
  const over = totalBp > PACKAGE_LIMITS.maxRateBp;
  const sumRule = (other: 'rate_l1' | 'rate_l2'): Rule => ({
    validator: async (_, value) => {
      const sum = (percentToBp(value) ?? 0) + (percentToBp(form.getFieldValue(other)) ?? 0);
      if (sum > PACKAGE_LIMITS.maxRateBp) throw new Error(t('form.rateSumError', { percent: formatBp(sum, lang) }));
    },
  });
  /** Decimal text (2 decimals at most, lib/money) within [0, maxInt] once converted; text that is no such number is refused. */
  const decimalRule = (field: string, maxInt: number, show: (n: number) => string, parse: (v: string) => number | null): Rule[] => [
    {
      validator: async (_, value: unknown) => {
        if (value == null || String(value).trim() === '') return;
        if (parse(String(value)) == null) throw new Error(t('common:form.badDecimal', { field, decimals: 2 }));
      },
    },
    between(field, 0, maxInt, (v) => (v == null ? null : parse(String(v))), show),
  ];

  const submit = async (v: PackageFormValues) => {
    try {
      const body = toBody(v);
      if (dlg.isEdit) await edit.mutateAsync({ ...body, id: dlg.record!.id });
      else await add.mutateAsync({ ...body, status: v.on_sale ? 'on_sale' : 'off_sale' });
    } catch (err) {
      if (isApiError(err)) {
        const mapped = Object.entries(err.fields).filter(([k]) => SERVER_FIELDS[k]);
        if (mapped.length) form.setFields(mapped.map(([k, msg]) => ({ name: SERVER_FIELDS[k]!, errors: [msg] })));
      }
      throw err;
    }
  };

  return (
    <FormModal<PackageFormValues>
      open={dlg.open}
      title={dlg.isEdit ? t('form.editTitle') : t('form.createTitle')}
      initialValues={dlg.record ? toFormValues(dlg.record) : NEW_PACKAGE}
      onClose={dlg.close}
      onSubmit={submit}
      form={form}
      width={640}
      testId="package-form"
    >
      <Form.Item name="name" label={t('form.name')} rules={fieldRules(packageFields.name, lang, t('form.name'))}>
        <Input maxLength={limitsOf(packageFields.name).maxLength} showCount placeholder={t('form.namePlaceholder')} data-testid="package-name" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="kind" label={t('form.kind')} rules={[required(t('form.kind'))]} extra={t(`form.kindHelp.${kind}`)}>
            <Radio.Group optionType="button" buttonStyle="solid" options={PACKAGE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="package-kind" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          {kind === 'count' ? (
            <Form.Item key="uses" name="uses" label={t('form.uses')} rules={[required(t('form.uses')), between(t('form.uses'), 1, PACKAGE_LIMITS.maxUses)]}>
              <InputNumber min={1} max={PACKAGE_LIMITS.maxUses} precision={0} style={{ width: '100%' }} data-testid="package-uses" />
            </Form.Item>
          ) : (
            <Form.Item key="days" name="days" label={t('form.days')} rules={[required(t('form.days')), between(t('form.days'), 1, PACKAGE_LIMITS.maxDays)]}>
              <InputNumber min={1} max={PACKAGE_LIMITS.maxDays} precision={0} style={{ width: '100%' }} data-testid="package-days" />
            </Form.Item>
          )}
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="price"
            label={t('form.price')}
            extra={t('form.priceHelp')}
            rules={[required(t('form.price')), ...decimalRule(t('form.price'), PACKAGE_LIMITS.maxPriceCents, (n) => formatMoney(n, lang), decimalToCents)]}
          >
            <InputNumber<string> stringMode min="0" max={centsToDecimal(PACKAGE_LIMITS.maxPriceCents)} precision={2} step="1" prefix={sign} style={{ width: '100%' }} data-testid="package-price" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="sort_order" label={t('form.sortOrder')} extra={t('form.sortOrderHelp')} rules={[between(t('form.sortOrder'), 0, PACKAGE_LIMITS.maxSortOrder)]}>
            <InputNumber min={0} max={PACKAGE_LIMITS.maxSortOrder} precision={0} style={{ width: '100%' }} data-testid="package-sort" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="rate_l1"
            label={t('form.rateL1')}
            tooltip={t('rateHelp')}
            dependencies={['rate_l2']}
            rules={[...decimalRule(t('form.rateL1'), PACKAGE_LIMITS.maxRateBp, (n) => formatBp(n, lang), percentToBp), sumRule('rate_l2')]}
            style={{ marginBottom: 8 }}
          >
            <InputNumber<string> stringMode min="0" max="100" precision={2} step="0.5" suffix="%" style={{ width: '100%' }} data-testid="package-rate-l1" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="rate_l2"
            label={t('form.rateL2')}
            tooltip={t('rateHelp')}
            dependencies={['rate_l1']}
            rules={[...decimalRule(t('form.rateL2'), PACKAGE_LIMITS.maxRateBp, (n) => formatBp(n, lang), percentToBp), sumRule('rate_l1')]}
            style={{ marginBottom: 8 }}
          >
            <InputNumber<string> stringMode min="0" max="100" precision={2} step="0.5" suffix="%" style={{ width: '100%' }} data-testid="package-rate-l2" />
          </Form.Item>
        </Col>
      </Row>
      <div className="package-rate-total" style={{ marginBottom: 16 }} data-testid="package-rate-total" aria-live="polite">
        <Typography.Text type={over ? 'danger' : 'secondary'}>
          {over
            ? t('form.rateTotalOver', { percent: formatBp(totalBp, lang) })
            : t('form.rateTotal', { percent: formatBp(totalBp, lang), amount: formatMoney(commissionCents(decimalToCents(price) ?? 0, percentToBp(rateL1) ?? 0, percentToBp(rateL2) ?? 0), lang) })}
        </Typography.Text>
      </div>
      <Form.Item name="description" label={t('form.description')} rules={fieldRules(packageFields.description, lang, t('form.description'))}>
        <Input.TextArea maxLength={limitsOf(packageFields.description).maxLength} showCount autoSize={{ minRows: 2, maxRows: 5 }} placeholder={t('form.descriptionPlaceholder')} />
      </Form.Item>
      {dlg.isEdit ? null : (
        <Form.Item name="on_sale" label={t('form.onSale')} valuePropName="checked" style={{ marginBottom: 0 }}>
          <Switch data-testid="package-on-sale" />
        </Form.Item>
      )}
    </FormModal>
  );
}
