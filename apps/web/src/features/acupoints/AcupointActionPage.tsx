import { useEffect, useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { ColumnsType } from 'antd/es/table';
import ArrowDownOutlined from '@ant-design/icons/es/icons/ArrowDownOutlined';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import ArrowUpOutlined from '@ant-design/icons/es/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import SaveOutlined from '@ant-design/icons/es/icons/SaveOutlined';
import UndoOutlined from '@ant-design/icons/es/icons/UndoOutlined';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { WAVEFORMS } from '@app/contract/api/meridians';
import type { TreatmentAction } from '@app/contract/api/acupoints';
import { applyServerErrors } from '../../components/FormModal';
import { Access, useAccess } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useTabTitle } from '../../lib/tabs';
import { useText } from '../../components/l10n-text';
import { useAcupointActions, useSaveActions } from './api';
import { LIMITS, MAX_ACTIONS, NEW_ACTION, toWireActions, totalMinutes } from './rules';
import '../../components/master-data.css';
import './acupoints.css';

interface ActionsForm {
  actions: TreatmentAction[];
}

/** /acupoint/action/:id (hidden route AcupointAction): the treatment actions of one acupoint, edited as a table. */
export default function AcupointActionPage() {
  const { t } = useTranslation('acupoints');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useAcupointActions(valid ? id : 0);
  const save = useSaveActions();
  const { can } = useAccess();
  const editable = can('acupoint:action');
  const [form] = Form.useForm<ActionsForm>();
  const watched = Form.useWatch('actions', form);
  const [dirty, setDirty] = useState(false);
  const data = query.data;
  const heading = data ? `${data.acupoint.code} ${text(data.acupoint.name)}` : '';

  // Load (and reload after a save) the server's list into the form.
  useEffect(() => {
    if (!data) return;
    form.setFieldsValue({ actions: data.list });
    setDirty(false);
  }, [data, form]);

  // The tab (and the window title) names the acupoint: "LU9 Taiyuan · Treatment actions".
  useTabTitle(heading ? `${heading} · ${t('actionsPage.title')}` : null);

  const submit = async () => {
    let values: ActionsForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ id, actions: toWireActions(values.actions ?? []) });
      setDirty(false);
    } catch (err) {
      applyServerErrors(form, err);
    }
  };

  const list = (watched ?? []) as Partial<TreatmentAction>[];
  const total = totalMinutes(list);

  const columnsFor = (ops: { remove: (i: number) => void; move: (a: number, b: number) => void; count: number }): ColumnsType<{ key: number; name: number }> => [
    { key: 'index', title: '#', width: 48, render: (_, __, i) => <span className="action-index">{i + 1}</span> },
    {
      key: 'waveform',
      title: t('actionsPage.col.waveform'),
      width: 200,
      render: (_, f) => (
        <Form.Item name={[f.name, 'waveform']} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('actionsPage.col.waveform') }) }]} style={{ margin: 0 }}>
          <Select disabled={!editable} options={WAVEFORMS.map((w) => ({ value: w, label: t(`waveform.${w}`) }))} aria-label={t('actionsPage.col.waveform')} data-testid={`action-waveform-${f.name}`} />
        </Form.Item>
      ),
    },
    {
      key: 'frequency',
      title: t('actionsPage.col.frequency'),
      width: 150,
      render: (_, f) => (
        <Form.Item
          name={[f.name, 'frequency_hz']}
          rules={[
            { required: true, message: t('common:form.required', { field: t('actionsPage.col.frequency') }) },
            { type: 'number', min: LIMITS.frequency.min, max: LIMITS.frequency.max, message: t('actionsPage.range', { min: LIMITS.frequency.min, max: LIMITS.frequency.max }) },
          ]}
          style={{ margin: 0 }}
        >
          <InputNumber
            disabled={!editable}
            min={LIMITS.frequency.min}
            max={LIMITS.frequency.max}
            step={1}
            suffix="Hz"
            style={{ width: '100%' }}
            aria-label={t('actionsPage.col.frequency')}
            data-testid={`action-frequency-${f.name}`}
          />
        </Form.Item>
      ),
    },
    {
      key: 'intensity',
      title: t('actionsPage.col.intensity'),
      width: 230,
      render: (_, f) => (
        <Flex align="flex-start" gap={6}>
          <Form.Item
            name={[f.name, 'intensity_min']}
            rules={[
              { required: true, message: t('actionsPage.requiredShort') },
              { type: 'number', min: LIMITS.intensity.min, max: LIMITS.intensity.max, message: t('actionsPage.range', { min: LIMITS.intensity.min, max: LIMITS.intensity.max }) },
            ]}
            style={{ margin: 0, flex: 1 }}
          >
            <InputNumber
              disabled={!editable}
              min={LIMITS.intensity.min}
              max={LIMITS.intensity.max}
              precision={0}
              style={{ width: '100%' }}
              aria-label={t('actionsPage.intensityMin')}
              data-testid={`action-min-${f.name}`}
            />
          </Form.Item>
          <span className="action-dash">–</span>
          <Form.Item
            name={[f.name, 'intensity_max']}
            dependencies={[['actions', f.name, 'intensity_min']]}
            rules={[
              { required: true, message: t('actionsPage.requiredShort') },
              { type: 'number', min: LIMITS.intensity.min, max: LIMITS.intensity.max, message: t('actionsPage.range', { min: LIMITS.intensity.min, max: LIMITS.intensity.max }) },
              ({ getFieldValue }) => ({
                validator: async (_r, v: number | null) => {
                  const min = getFieldValue(['actions', f.name, 'intensity_min']) as number | null;
                  if (v != null && min != null && min > v) throw new Error(t('actionsPage.intensityOrder'));
                },
              }),
            ]}
            style={{ margin: 0, flex: 1 }}
          >
            <InputNumber
              disabled={!editable}
              min={LIMITS.intensity.min}
              max={LIMITS.intensity.max}
              precision={0}
              style={{ width: '100%' }}
              aria-label={t('actionsPage.intensityMax')}
              data-testid={`action-max-${f.name}`}
            />
          </Form.Item>
        </Flex>
      ),
    },
    {
      key: 'minutes',
      title: t('actionsPage.col.minutes'),
      width: 130,
      render: (_, f) => (
        <Form.Item
          name={[f.name, 'minutes']}
          rules={[
            { required: true, message: t('actionsPage.requiredShort') },
            { type: 'number', min: LIMITS.minutes.min, max: LIMITS.minutes.max, message: t('actionsPage.range', { min: LIMITS.minutes.min, max: LIMITS.minutes.max }) },
          ]}
          style={{ margin: 0 }}
        >
          <InputNumber
            disabled={!editable}
            min={LIMITS.minutes.min}
            max={LIMITS.minutes.max}
            precision={0}
            suffix={t('actionsPage.min')}
            style={{ width: '100%' }}
            aria-label={t('actionsPage.col.minutes')}
            data-testid={`action-minutes-${f.name}`}
          />
        </Form.Item>
      ),
    },
    ...(editable
      ? [
          {
            key: 'ops',
            title: t('common:list.actions'),
            width: 120,
            render: (_: unknown, f: { name: number }, i: number) => (
              <Space size={0}>
                <Tooltip title={t('actionsPage.up')}>
                  <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => ops.move(i, i - 1)} aria-label={t('actionsPage.up')} />
                </Tooltip>
                <Tooltip title={t('actionsPage.down')}>
                  <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={i === ops.count - 1} onClick={() => ops.move(i, i + 1)} aria-label={t('actionsPage.down')} />
                </Tooltip>
                <Tooltip title={t('actionsPage.remove')}>
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => ops.remove(f.name)} aria-label={t('actionsPage.remove')} data-testid={`action-remove-${i}`} />
                </Tooltip>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const header = useMemo(() => {
    if (!data) return null;
    const a = data.acupoint;
    return (
      <Flex align="center" gap={12} wrap>
        <Tooltip title={t('actionsPage.back')}>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/acupoint/management')} aria-label={t('actionsPage.back')} />
        </Tooltip>
        <h2 className="action-heading" data-testid="action-heading">
          <span className="mono">{a.code}</span> {text(a.name)}
        </h2>
        {a.is_treatment_point ? <Tag color="green">{t('flag.treatment')}</Tag> : <Tag>{t('actionsPage.notTreatment')}</Tag>}
      </Flex>
    );
  }, [data, t, text, navigate]);

  if (!valid || (query.isError && !data)) {
    return (
      <div className="list-panel" style={{ padding: 24 }}>
        <Result status="warning" title={t('actionsPage.notFound')} extra={<Button onClick={() => navigate('/acupoint/management')}>{t('actionsPage.back')}</Button>} />
      </div>
    );
  }

  return (
    <Flex vertical gap={16} data-testid="acupoint-actions-page">
      <section className="list-panel action-header">
        {data ? header : <Skeleton active paragraph={{ rows: 1 }} title={false} />}
        {data ? <p className="action-sub">{t('actionsPage.intro')}</p> : null}
        {data && !data.acupoint.is_treatment_point ? <Alert type="info" showIcon title={t('actionsPage.notTreatmentHint')} style={{ marginTop: 8 }} /> : null}
      </section>
      <section className="list-panel list-card">
        <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
          <Flex align="center" gap={12} wrap>
            <div className="list-title">{t('actionsPage.title')}</div>
            <span className="master-dim" data-testid="action-summary">
              {t('actionsPage.summary', { count: formatNumber(list.length, lang), max: MAX_ACTIONS, minutes: formatNumber(total, lang) })}
            </span>
            {dirty ? (
              <Tag color="warning" data-testid="action-dirty">
                {t('actionsPage.unsaved')}
              </Tag>
            ) : null}
          </Flex>
          <Access sign="acupoint:action">
            <Space>
              <Button
                icon={<UndoOutlined />}
                disabled={!dirty || save.isPending}
                onClick={() => {
                  if (data) {
                    form.setFieldsValue({ actions: data.list });
                    setDirty(false);
                  }
                }}
                data-testid="action-reset"
              >
                {t('actionsPage.revert')}
              </Button>
              <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!data} onClick={submit} data-testid="action-save">
                {t('common:form.save')}
              </Button>
            </Space>
          </Access>
        </Flex>
        {data ? null : <Skeleton active title={false} paragraph={{ rows: 3 }} />}
        <Form<ActionsForm> form={form} component="div" onValuesChange={() => setDirty(true)} style={data ? undefined : { display: 'none' }}>
          <Form.List name="actions">
            {(fields, { add, remove, move }) => (
              <>
                <Table<{ key: number; name: number }>
                  size="middle"
                  rowKey="key"
                  dataSource={fields.map((f) => ({ key: f.key, name: f.name }))}
                  columns={columnsFor({
                    remove: (i) => {
                      remove(i);
                      setDirty(true);
                    },
                    move: (a, b) => {
                      move(a, b);
                      setDirty(true);
                    },
                    count: fields.length,
                  })}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                  locale={{
                    emptyText: (
                      <div className="action-empty" data-testid="action-empty">
                        {t('actionsPage.empty')}
                      </div>
                    ),
                  }}
                  data-testid="action-table"
                />
                {editable ? (
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    style={{ marginTop: 12 }}
                    disabled={fields.length >= MAX_ACTIONS}
                    onClick={() => {
                      add({ ...NEW_ACTION });
                      setDirty(true);
                    }}
                    data-testid="action-add"
                  >
                    {fields.length >= MAX_ACTIONS ? t('actionsPage.full', { max: MAX_ACTIONS }) : t('actionsPage.add')}
                  </Button>
                ) : null}
              </>
            )}
          </Form.List>
        </Form>
      </section>
    </Flex>
  );
}
