import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import Alert from 'antd/es/alert';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Result from 'antd/es/result';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { Rule } from 'antd/es/form';
import UndoOutlined from '@ant-design/icons/es/icons/UndoOutlined';
import SaveOutlined from '@ant-design/icons/es/icons/SaveOutlined';
import { useTranslation } from 'react-i18next';
import type { ParamItem } from '@app/contract/api/params';
import { pickText, type Lang } from '@app/contract/i18n';
import { formatMessage } from '@app/contract/messages';
import { applyServerErrors } from '../../components/FormModal';
import { Access, useAccess } from '../../lib/access';
import { CURRENCY, decimalToCents, formatMoney, formatNumber } from '../../lib/money';
import { LANG_TAGS } from '../../lib/lang';
import { useSettings } from '../../lib/settings';
import { useParamsList, useSaveParams } from './api';
import { changedKeys, formValuesOf, groupParams, isDefault, saveValues, toForm, type FormValue } from './values';

interface ParamsForm {
  values: Record<string, FormValue>;
}

const currencySign = (lang: Lang) => new Intl.NumberFormat(LANG_TAGS[lang], { style: 'currency', currency: CURRENCY }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? '¥';

/** A value as the page shows it (defaults in hints). */
function display(item: ParamItem, value: string | number, lang: Lang): string {
  switch (item.type) {
    case 'money_cents':
      return formatMoney(Number(value), lang);
    case 'integer':
      return formatNumber(Number(value), lang);
    case 'enum':
      return pickText(item.options?.find((o) => o.value === value)?.label, lang) || String(value);
    default:
      return String(value);
  }
}

/** /system/params-setting (grade 0): a typed form built from GET /params/list; saving needs params:edit. */
export default function ParamsPage() {
  const { t } = useTranslation('params');
  const lang = useSettings((s) => s.lang);
  const { can } = useAccess();
  const canEdit = can('params:edit');
  const { data, isError, refetch, isFetching } = useParamsList();
  const [form] = Form.useForm<ParamsForm>();
  const watched = Form.useWatch('values', form) as Record<string, FormValue> | undefined;
  const save = useSaveParams(t('saved'));
  const items = useMemo(() => data ?? [], [data]);
  const groups = useMemo(() => groupParams(items), [items]);
  const dirty = changedKeys(items, watched);
  const dirtyCount = dirty.length;

  // Load the saved values when they arrive or change, unless the user has edits in progress.
  const dirtyRef = useRef(dirtyCount);
  dirtyRef.current = dirtyCount;
  useEffect(() => {
    if (data && dirtyRef.current === 0) form.setFieldsValue(formValuesOf(data));
  }, [data, form]);

  // Leaving the page with unsaved edits asks first (the browser's own dialog).
  const hasEdits = dirtyCount > 0;
  useEffect(() => {
    if (!hasEdits) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasEdits]);

  const submit = async () => {
    let v: ParamsForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const values = saveValues(items, v.values);
    if (!Object.keys(values).length) return;
    try {
      await save.mutateAsync({ values });
    } catch (err) {
      applyServerErrors(form, err);
    }
  };

  const discard = () => {
    form.resetFields();
    form.setFieldsValue(formValuesOf(items));
  };

  const rulesOf = (item: ParamItem, label: string): Rule[] => {
    const rules: Rule[] = [];
    switch (item.type) {
      case 'enum':
        rules.push({ required: true, message: t('required', { field: label }) });
        break;
      case 'integer':
      case 'money_cents': {
        const toInt = (v: FormValue) => (item.type === 'money_cents' ? decimalToCents(v) : v == null || v === '' ? null : Number(v));
        rules.push({ required: true, message: t('required', { field: label }) });
        rules.push({
          validator: async (_, v: FormValue) => {
            const n = toInt(v);
            if (n == null) {
              // An amount that cannot be sent exactly (more than 2 decimals, a sign…) is refused, not dropped.
              if (item.type === 'money_cents' && v != null && String(v).trim() !== '') throw new Error(t('common:form.badDecimal', { field: label, decimals: 2 }));
              return;
            }
            const min = item.min ?? 0;
            const max = item.max ?? Number.MAX_SAFE_INTEGER;
            if (n < min || n > max) throw new Error(t('between', { field: label, min: display(item, min, lang), max: display(item, max, lang) }));
          },
        });
        break;
      }
      case 'string':
      case 'text': {
        const min = item.min_length ?? 0;
        const max = item.max_length ?? 2000;
        if (min > 0) rules.push({ required: true, whitespace: true, message: t('required', { field: label }) });
        rules.push({
          validator: async (_, v: FormValue) => {
            const len = typeof v === 'string' ? v.trim().length : 0;
            if (len > max || (len > 0 && len < min)) throw new Error(min > 0 ? t('lengthBetween', { field: label, min, max }) : t('maxLength', { field: label, max }));
          },
        });
        break;
      }
    }
    // The server's rule between parameters, mirrored: the idle timeout fits in the session lifetime.
    if (item.key === 'session_idle_minutes' && items.some((i) => i.key === 'session_absolute_hours')) {
      rules.push({
        validator: async (_, v: FormValue) => {
          const hours = form.getFieldValue(['values', 'session_absolute_hours']) as FormValue;
          if (v == null || hours == null || v === '' || hours === '') return;
          if (Number(v) > Number(hours) * 60) throw new Error(formatMessage('paramIdleOverAbsolute', lang));
        },
      });
    }
    return rules;
  };

  const inputOf = (item: ParamItem, label: string): ReactNode => {
    const id = `param-${item.key}`;
    const common = { id, 'aria-label': label, 'data-testid': id };
    switch (item.type) {
      case 'enum':
        return <Select {...common} style={{ width: 220 }} options={(item.options ?? []).map((o) => ({ value: o.value, label: pickText(o.label, lang) }))} />;
      case 'integer':
        return <InputNumber {...common} min={item.min} max={item.max} precision={0} style={{ width: 220 }} />;
      case 'money_cents':
        return (
          <InputNumber<string>
            {...common}
            stringMode
            min={item.min != null ? String(toForm('money_cents', item.min)) : undefined}
            max={item.max != null ? String(toForm('money_cents', item.max)) : undefined}
            precision={2}
            prefix={currencySign(lang)}
            style={{ width: 220 }}
          />
        );
      case 'text':
        return <Input.TextArea {...common} maxLength={item.max_length} showCount autoSize={{ minRows: 3, maxRows: 8 }} />;
      case 'string':
        return <Input {...common} maxLength={item.max_length} showCount />;
    }
  };

  const field = (item: ParamItem) => {
    const label = pickText(item.label, lang);
    const value = watched?.[item.key];
    const changed = dirty.includes(item.key);
    const atDefault = isDefault(item, value);
    const defaultText = display(item, item.default, lang);
    const help = pickText(item.help, lang);
    const wide = item.type === 'string' || item.type === 'text';
    const resetButton = (
      <Tooltip title={atDefault ? t('isDefault') : `${t('resetDefault')}${item.type === 'text' ? '' : ` (${defaultText})`}`}>
        <Button
          icon={<UndoOutlined />}
          aria-label={`${t('resetDefault')}: ${label}`}
          disabled={atDefault}
          onClick={() => {
            form.setFieldValue(['values', item.key], toForm(item.type, item.default));
            // Re-check this field and every field showing an error (rules between parameters).
            const failing = form
              .getFieldsError()
              .filter((f) => f.errors.length)
              .map((f) => f.name);
            void form.validateFields([['values', item.key], ...failing]).catch(() => undefined);
          }}
          data-testid={`param-reset-${item.key}`}
        />
      </Tooltip>
    );
    return (
      <Form.Item
        key={item.key}
        label={
          <Space size={6}>
            <span>{label}</span>
            {changed ? (
              <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid={`param-modified-${item.key}`}>
                {t('modified')}
              </Tag>
            ) : null}
          </Space>
        }
        htmlFor={`param-${item.key}`}
        required={item.type !== 'text' && (item.type !== 'string' || (item.min_length ?? 0) > 0)}
        extra={item.type === 'text' ? help : `${help} · ${t('defaultValue', { value: defaultText || t('emptyText') })}`}
        data-testid={`param-item-${item.key}`}
      >
        <Flex gap={8} align="flex-start">
          <div style={wide ? { flex: '1 1 auto', minWidth: 0 } : undefined}>
            <Form.Item name={['values', item.key]} noStyle rules={rulesOf(item, label)} dependencies={item.key === 'session_idle_minutes' ? [['values', 'session_absolute_hours']] : undefined}>
              {inputOf(item, label)}
            </Form.Item>
          </div>
          {canEdit ? resetButton : null}
        </Flex>
      </Form.Item>
    );
  };

  /** The save bar, stuck to the bottom of the window while the form is longer than it. */
  const footer = (
    <Card size="small" style={{ position: 'sticky', bottom: 0, zIndex: 5, marginTop: 16, boxShadow: '0 -2px 8px rgba(0, 0, 0, 0.06)' }} styles={{ body: { padding: '10px 24px' } }}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <span data-testid="params-dirty" data-count={dirtyCount}>
          {dirtyCount ? <Badge status="warning" text={t('unsaved', { count: dirtyCount })} /> : <Badge status="success" text={t('noChanges')} />}
        </span>
        <Access sign="params:edit">
          <Space>
            <Button onClick={discard} disabled={!dirtyCount || save.isPending} data-testid="params-discard">
              {t('discard')}
            </Button>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} disabled={!dirtyCount || isFetching} data-testid="params-save">
              {t('save')}
            </Button>
          </Space>
        </Access>
      </Flex>
    </Card>
  );

  if (isError && !data) {
    return (
      <Card>
        <Result
          status="warning"
          title={t('loadFailed')}
          extra={
            <Button type="primary" onClick={() => refetch()}>
              {t('common:list.retry')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Flex vertical gap={16} data-testid="params-page">
      <Card styles={{ body: { padding: '16px 24px' } }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
        {!canEdit ? <Alert type="info" showIcon title={t('readOnly')} style={{ marginTop: 12 }} data-testid="params-readonly" /> : null}
      </Card>
      {!data ? (
        <Card>
          <Skeleton active paragraph={{ rows: 10 }} />
        </Card>
      ) : (
        <Form<ParamsForm> form={form} layout="vertical" disabled={!canEdit} onFinish={submit} scrollToFirstError={{ block: 'center' }} data-testid="params-form">
          <Row gutter={[16, 16]}>
            {groups.map((g) => (
              <Col key={g.key} xs={24} xl={12}>
                <Card
                  title={t(`group.${g.key}.title`)}
                  extra={
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(`group.${g.key}.text`)}
                    </Typography.Text>
                  }
                  style={{ height: '100%' }}
                  styles={{ body: { paddingBottom: 4 } }}
                  data-testid={`params-group-${g.key}`}
                >
                  {g.items.map(field)}
                </Card>
              </Col>
            ))}
          </Row>
          {canEdit ? footer : null}
        </Form>
      )}
    </Flex>
  );
}
