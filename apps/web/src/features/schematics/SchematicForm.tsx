import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { MASTER_LIMITS } from '@app/contract/api/meridians';
import { SCHEMATIC_KINDS, type SchematicDetail, type SchematicKind, type SchematicMarker } from '@app/contract/api/schematics';
import type { L10n } from '@app/contract/i18n';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { cleanL10n, emptyL10n, useText } from '../../components/l10n-text';
import { L10nFields } from '../../components/L10nFields';
import { ImageUpload } from '../../components/ImageUpload';
import { useAcupointOptions } from '../../components/master-options';
import { MarkerEditor } from './MarkerEditor';
import { MAX_MARKERS, toWireMarkers } from './markers';
import { useAddSchematic, useEditSchematic } from './api';

export interface SchematicFormValues {
  title: L10n;
  kind: SchematicKind;
  image: string;
  width?: number;
  height?: number;
  sort: number;
  markers: SchematicMarker[];
}

const toValues = (d: SchematicDetail): SchematicFormValues => ({
  title: d.title,
  kind: d.kind,
  image: d.image,
  width: d.width,
  height: d.height,
  sort: d.sort,
  markers: d.markers.map((m) => ({ acupoint_id: m.acupoint_id, x: m.x, y: m.y })),
});

const NEW: SchematicFormValues = { title: emptyL10n(), kind: 'measurement_map', image: '', sort: 0, markers: [] };

export function SchematicForm({ dlg }: { dlg: ReturnType<typeof useFormModal<SchematicDetail>> }) {
  const { t } = useTranslation('schematics');
  const text = useText();
  const [form] = Form.useForm<SchematicFormValues>();
  const image = Form.useWatch('image', form);
  const title = Form.useWatch('title', form);
  const options = useAcupointOptions();
  const add = useAddSchematic();
  const edit = useEditSchematic();

  const submit = async (v: SchematicFormValues) => {
    const width = v.width ?? form.getFieldValue('width');
    const height = v.height ?? form.getFieldValue('height');
    const body = {
      title: cleanL10n(v.title),
      kind: v.kind,
      image: v.image,
      width,
      height,
      sort: v.sort ?? 0,
      markers: toWireMarkers(v.markers ?? []),
    };
    if (dlg.isEdit) await edit.mutateAsync({ ...body, id: dlg.record!.id });
    else await add.mutateAsync(body);
  };

  return (
    <FormModal<SchematicFormValues>
      open={dlg.open}
      form={form}
      variant="drawer"
      width={Math.min(1080, window.innerWidth)}
      title={dlg.isEdit ? t('form.editTitle', { name: text(dlg.record!.title) }) : t('form.createTitle')}
      initialValues={dlg.record ? toValues(dlg.record) : NEW}
      onClose={dlg.close}
      onSubmit={submit}
      testId="schematic-form"
    >
      <L10nFields name="title" label={t('col.title')} required testId="schematic-title" />
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Form.Item name="kind" label={t('col.kind')} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('col.kind') }) }]}>
            <Select options={SCHEMATIC_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="schematic-kind" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={4}>
          <Form.Item name="sort" label={t('col.sort')} tooltip={t('form.sortHint')}>
            <InputNumber min={0} max={MASTER_LIMITS.sortMax} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="image" label={t('col.image')} rules={[{ required: true, message: t('form.imageRequired') }]}>
            <ImageUpload variant="bar" testId="schematic-image" onUploaded={(a) => form.setFieldsValue({ width: a.width, height: a.height })} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="width" hidden>
        <InputNumber />
      </Form.Item>
      <Form.Item name="height" hidden>
        <InputNumber />
      </Form.Item>
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('editor.title')}
      </Divider>
      <Form.Item
        name="markers"
        rules={[
          {
            validator: async (_, v: SchematicMarker[] | undefined) => {
              if ((v?.length ?? 0) > MAX_MARKERS) throw new Error(t('editor.tooMany', { max: MAX_MARKERS }));
            },
          },
        ]}
      >
        <MarkerEditor
          image={image || undefined}
          alt={text(title)}
          options={options.data ?? []}
          optionsLoading={options.isFetching}
          onImageLoad={(w, h) => {
            if (!form.getFieldValue('width') || !form.getFieldValue('height')) form.setFieldsValue({ width: w, height: h });
          }}
        />
      </Form.Item>
    </FormModal>
  );
}
