import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Space from 'antd/es/space';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { useTranslation } from 'react-i18next';
import type { ListParams } from './useListParams';
import { applyFromForm, applyToForm, type FilterCodec } from './codecs';

export interface FilterBarProps<F extends string> {
  params: ListParams<F>;
  /** Names of the filters this bar edits (default: every filter of the list). */
  names?: readonly F[];
  codecs?: FilterCodec[];
  /** Filters applied as soon as they change (selects, switches, dates); others on Search / Enter. */
  instant?: readonly string[];
  children: ReactNode;
  /** `vertical` in the phone's filter drawer (one field a line). */
  layout?: 'inline' | 'vertical';
  /** Called after Search or Reset applied the form (the phone's drawer closes). */
  onApplied?: () => void;
}

/**
 * The filter form above a list: fields are `Form.Item`s whose names are filter names (or codec
 * fields). Search applies, Reset clears; the form follows the URL (back/forward, links).
 */
export function FilterBar<F extends string>({ params, names, codecs, instant, children, layout = 'inline', onApplied }: FilterBarProps<F>) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const urlKey = JSON.stringify(params.filters);
  const formValues = useMemo(() => applyToForm(params.filters as Record<string, string | undefined>, names ?? params.names, codecs), [params.filters, names, params.names, codecs]);

  // Follow the URL when it changes (back/forward, a link, Reset) — but not when a kept-alive page is
  // shown again: effects re-run then, and a half-typed filter must survive.
  const applied = useRef(urlKey);
  useEffect(() => {
    if (applied.current === urlKey) return;
    applied.current = urlKey;
    form.setFieldsValue(formValues);
  }, [form, formValues, urlKey]);

  const submit = () => params.setFilters(applyFromForm(form.getFieldsValue(), codecs) as never);
  const done = (apply: () => void) => () => {
    apply();
    onApplied?.();
  };

  return (
    <Form
      form={form}
      layout={layout}
      className="filter-bar"
      data-testid="filter-bar"
      initialValues={formValues}
      onFinish={done(submit)}
      onValuesChange={(changed) => {
        if (instant && Object.keys(changed).some((k) => instant.includes(k))) submit();
      }}
    >
      {children}
      <Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="filter-search">
            {t('list.search')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={done(() => params.resetFilters())} data-testid="filter-reset">
            {t('list.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
