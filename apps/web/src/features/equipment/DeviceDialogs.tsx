import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import Upload from 'antd/es/upload';
import { useTranslation } from 'react-i18next';
import { DEVICE_LIMITS, type DeviceRow, type EquipmentImportAnswer } from '@app/contract/api/equipment';
import { FormModal } from '../../components/FormModal';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { ApiError } from '../../lib/api';
import { withFeedback } from '../../lib/feedback';
import { useAddDevice, useDistribute, useEditDevice, useImportDevices } from './api';
import { secretsCsv } from './secrets';

/** The secret of a device, shown once (after adding it or resetting its secret). */
export function SecretDialog({ shown, onClose }: { shown: { serial: string; secret: string } | null; onClose: () => void }) {
  const { t } = useTranslation('equipment');
  return (
    <Modal open={!!shown} title={t('life.secretTitle')} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('life.secretHelp', { serial: shown?.serial })}</Typography.Paragraph>
      <Typography.Paragraph copyable className="mono" data-testid="device-secret">
        {shown?.secret}
      </Typography.Paragraph>
    </Modal>
  );
}

interface DeviceFields {
  serial: string;
  model: string;
  name: string;
  remark?: string;
}

/** Add one device (serial, model, name, remark): answers its secret once. */
export function AddDeviceDialog({ open, onClose, onSecret }: { open: boolean; onClose: () => void; onSecret: (s: { serial: string; secret: string }) => void }) {
  const { t } = useTranslation('equipment');
  const add = useAddDevice();
  return (
    <FormModal<DeviceFields>
      open={open}
      title={t('life.add')}
      onClose={onClose}
      testId="device-add"
      onSubmit={async (v) => {
        const answer = await add.mutateAsync(v);
        onSecret({ serial: v.serial.trim().toUpperCase(), secret: answer.secret });
      }}
    >
      <Form.Item name="serial" label={t('life.serial')} rules={[{ required: true, whitespace: true }]}>
        <Input className="mono" maxLength={DEVICE_LIMITS.serialLength} data-testid="device-add-serial" />
      </Form.Item>
      <DeviceDetailFields />
    </FormModal>
  );
}

function DeviceDetailFields() {
  const { t } = useTranslation('equipment');
  return (
    <>
      <Form.Item name="model" label={t('life.model')} rules={[{ required: true, whitespace: true }]}>
        <Input maxLength={DEVICE_LIMITS.modelLength} data-testid="device-model" />
      </Form.Item>
      <Form.Item name="name" label={t('life.name')} rules={[{ required: true, whitespace: true }]}>
        <Input maxLength={DEVICE_LIMITS.nameLength} data-testid="device-name" />
      </Form.Item>
      <Form.Item name="remark" label={t('life.remark')}>
        <Input.TextArea maxLength={DEVICE_LIMITS.remarkLength} rows={2} />
      </Form.Item>
    </>
  );
}

/** Edit name, model and remark (never the serial). */
export function EditDeviceDialog({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation('equipment');
  const edit = useEditDevice();
  return (
    <FormModal<Omit<DeviceFields, 'serial'>>
      open={!!device}
      title={`${t('life.edit')} ${device?.serial ?? ''}`}
      onClose={onClose}
      initialValues={device ?? undefined}
      testId="device-edit"
      onSubmit={(v) => edit.mutateAsync({ id: device!.id, ...v })}
    >
      <DeviceDetailFields />
    </FormModal>
  );
}

const toBase64 = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

const saveSecrets = (devices: EquipmentImportAnswer['devices']) => {
  const href = URL.createObjectURL(new Blob([secretsCsv(devices)], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = 'device-secrets.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
};

/** A batch from a CSV/XLSX of serials: all rows or none; the bad rows are listed with their reasons. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('equipment');
  const importFile = useImportDevices();
  const [file, setFile] = useState<File | null>(null);
  const [bad, setBad] = useState<{ row: number; reason: string }[]>([]);
  const [done, setDone] = useState<EquipmentImportAnswer | null>(null);
  const close = () => {
    setFile(null);
    setBad([]);
    setDone(null);
    onClose();
  };
  return (
    <FormModal<{ model?: string; remark?: string }>
      open={open}
      title={t('life.importFile')}
      onClose={close}
      testId="device-import"
      onSubmit={async (v) => {
        if (!file) throw new ApiError('business', t('life.file'), { code: 400 });
        setBad([]);
        try {
          const answer = await importFile.mutateAsync({ format: /\.xlsx$/i.test(file.name) ? 'xlsx' : 'csv', file: await toBase64(file), model: v.model ?? '', remark: v.remark ?? '' });
          setDone(answer);
          saveSecrets(answer.devices);
          withFeedback(({ message }) => {
            void message.success(t('life.imported', { n: answer.count }));
          });
        } catch (error) {
          const fields = (error as { fields?: Record<string, string> }).fields ?? (error as { data?: { fields?: Record<string, string> } }).data?.fields;
          if (fields) setBad(Object.entries(fields).map(([k, reason]) => ({ row: Number(k.replace('row.', '')), reason })));
          throw error;
        }
      }}
    >
      <Typography.Paragraph type="secondary">{t('life.fileHelp')}</Typography.Paragraph>
      <Form.Item label={t('life.file')} required>
        <Upload
          accept=".csv,.xlsx"
          maxCount={1}
          beforeUpload={(f) => {
            setFile(f);
            return false;
          }}
          onRemove={() => setFile(null)}
          fileList={file ? [{ uid: '1', name: file.name }] : []}
        >
          <Button data-testid="device-import-file">{t('life.file')}</Button>
        </Upload>
      </Form.Item>
      <Form.Item name="model" label={t('life.defaultModel')}>
        <Input maxLength={DEVICE_LIMITS.modelLength} />
      </Form.Item>
      {bad.length ? (
        <Table
          size="small"
          rowKey="row"
          pagination={false}
          scroll={{ y: 240 }}
          title={() => t('life.badRows')}
          dataSource={bad}
          columns={[
            { key: 'row', dataIndex: 'row', title: t('life.row'), width: 80 },
            { key: 'reason', dataIndex: 'reason', title: t('life.reason') },
          ]}
          data-testid="device-import-bad"
        />
      ) : null}
      {done ? <Alert type="success" showIcon title={t('life.imported', { n: done.count })} action={<Button onClick={() => saveSecrets(done.devices)}>{t('life.downloadSecrets')}</Button>} /> : null}
    </FormModal>
  );
}

/** Moves the selected devices (one owner) to an institution or back to platform stock. */
export function DistributeDialog({ devices, onClose, onDone }: { devices: DeviceRow[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('equipment');
  const distribute = useDistribute();
  const from = devices?.[0]?.institution_id ?? null;
  return (
    <FormModal<{ to?: number | null; remark?: string }>
      open={!!devices}
      title={t('life.distribute')}
      onClose={onClose}
      testId="device-distribute"
      onSubmit={async (v) => {
        const answer = await distribute.mutateAsync({ ids: devices!.map((d) => d.id), from, to: v.to ?? null, remark: v.remark ?? '' });
        withFeedback(({ message }) => {
          void message.success(t('life.distributed', { n: answer.count }));
        });
        onDone();
      }}
    >
      <Typography.Paragraph>
        {t('life.selected', { n: devices?.length ?? 0 })} · {t('life.fromLabel')}: {devices?.[0]?.institution_name ?? t('life.toStock')}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" className="mono">
        {devices?.map((d) => d.serial).join(', ')}
      </Typography.Paragraph>
      <Form.Item name="to" label={t('life.to')} extra={t('life.toStock')}>
        <InstitutionSelect placeholder={t('life.toStock')} style={{ width: '100%' }} data-testid="device-distribute-to" />
      </Form.Item>
      <Form.Item name="remark" label={t('life.remark')}>
        <Input maxLength={200} data-testid="device-distribute-remark" />
      </Form.Item>
    </FormModal>
  );
}
