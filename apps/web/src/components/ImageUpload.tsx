/**
 * Image upload control (a Form.Item child: value = the uploaded URL). Checks the file in the browser
 * first (by content, like the server: an HTML page renamed .png is refused), shows progress, and
 * reports the server's refusal in place (the api client has toasted it already). Used by schematics
 * (diagram images), acupoints and payout vouchers. Strings: `common:upload.*`.
 */
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import Alert from 'antd/es/alert';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Progress from 'antd/es/progress';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import UploadOutlined from '@ant-design/icons/es/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { UPLOAD_IMAGE_MAX_BYTES, type UploadAnswer } from '@app/contract/api/uploads';
import { isApiError, uploadTo } from '../lib/api';
import { checkImageFile, IMAGE_ACCEPT } from './image-file';
import './master-data.css';

export interface ImageUploadProps {
  value?: string;
  onChange?: (url: string) => void;
  /** The full answer (natural width and height…) after a successful upload. */
  onUploaded?: (answer: UploadAnswer) => void;
  /** card: a thumbnail box (acupoint image); bar: a button row (the diagram editor shows the picture). */
  variant?: 'card' | 'bar';
  allowRemove?: boolean;
  testId?: string;
  /** Extra content on the bar variant's row. */
  extra?: ReactNode;
  /** Where the image goes: the master-data pages' upload, or a payout's voucher (reviewers only). */
  endpoint?: 'uploads.uploadImg' | 'finance.payoutVoucher';
}

const MB = 1024 * 1024;

export function ImageUpload({ value, onChange, onUploaded, variant = 'card', allowRemove = true, testId = 'image-upload', extra, endpoint = 'uploads.uploadImg' }: ImageUploadProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = percent !== null;

  /** Shows why in place, and as a toast unless the api client has toasted it already. */
  const fail = (text: string, toasted = false) => {
    setError(text);
    if (!toasted) void message.error({ content: text, key: 'image-upload' });
  };

  const send = async (file: File) => {
    setError(null);
    const problem = await checkImageFile(file);
    if (problem) {
      fail(t(`upload.${problem}`, { name: file.name, max: UPLOAD_IMAGE_MAX_BYTES / MB }));
      return;
    }
    setPercent(0);
    try {
      // Multipart, field `file`: uploads.uploadImg is open to the pages that upload (acupoints, schematics),
      // finance.payoutVoucher to payout reviewers.
      const answer = await uploadTo(endpoint, file, setPercent);
      onChange?.(answer.url);
      onUploaded?.(answer);
      void message.success({ content: t('upload.done', { name: answer.original_name || file.name }), key: 'image-upload' });
    } catch (err) {
      if (!isApiError(err)) fail(t('upload.failed'));
      // The login-expired dialog / overdue notice says it all.
      else if (err.kind === 'expired' || err.kind === 'overdue') setError(null);
      // The server's refusal ("not an image"…) in its words; transport failures get the upload's own hint.
      else fail(err.kind === 'business' ? err.message : t('upload.failed'), err.notified);
    } finally {
      setPercent(null);
    }
  };

  const pick = () => {
    if (!busy) input.current?.click();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files?.[0];
    if (file && !busy) void send(file);
  };

  const fileInput = (
    <input
      ref={input}
      type="file"
      accept={IMAGE_ACCEPT}
      style={{ display: 'none' }}
      data-testid={`${testId}-input`}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) void send(file);
      }}
    />
  );

  const progress = busy ? (
    <div className="image-upload-progress" role="status" aria-live="polite" data-testid={`${testId}-progress`}>
      <Progress percent={percent ?? 0} size="small" status="active" format={(p) => `${p}%`} />
      <span className="image-upload-hint">{t('upload.uploading')}</span>
    </div>
  ) : null;

  const errorBox = error ? <Alert type="error" showIcon title={error} closable={{ onClose: () => setError(null) }} data-testid={`${testId}-error`} style={{ marginTop: 8 }} /> : null;

  if (variant === 'bar') {
    return (
      // The upload's controls as a group, which also takes a dropped file (the button is the keyboard's way in).
      <fieldset
        className="image-upload-bar"
        data-testid={testId}
        onDragOver={(e) => {
          e.preventDefault();
        }}
        onDrop={onDrop}
      >
        {fileInput}
        <Flex gap={12} align="center" wrap>
          <Button icon={<UploadOutlined />} onClick={pick} loading={busy} data-testid={`${testId}-pick`}>
            {value ? t('upload.replace') : t('upload.choose')}
          </Button>
          <span className="image-upload-hint">{t('upload.hint', { max: UPLOAD_IMAGE_MAX_BYTES / MB })}</span>
          {extra}
        </Flex>
        {progress}
        {errorBox}
      </fieldset>
    );
  }

  return (
    <div data-testid={testId}>
      {fileInput}
      <Flex gap={16} align="flex-start" wrap>
        <button
          type="button"
          className={`image-upload-card${dragging ? ' is-dragging' : ''}${value ? ' has-image' : ''}`}
          onClick={pick}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          disabled={busy}
          aria-label={value ? t('upload.replace') : t('upload.choose')}
          data-testid={`${testId}-pick`}
        >
          {value ? (
            <img src={value} alt="" className="image-upload-thumb" />
          ) : (
            <span className="image-upload-empty">
              <PictureOutlined style={{ fontSize: 22 }} />
              <span>{busy ? t('upload.uploading') : t('upload.choose')}</span>
            </span>
          )}
        </button>
        <Flex vertical gap={8} style={{ flex: '1 1 180px', minWidth: 0 }}>
          <span className="image-upload-hint">{t('upload.dropHint')}</span>
          <span className="image-upload-hint">{t('upload.hint', { max: UPLOAD_IMAGE_MAX_BYTES / MB })}</span>
          <Flex gap={8} wrap>
            <Button size="small" icon={<UploadOutlined />} onClick={pick} loading={busy}>
              {value ? t('upload.replace') : t('upload.choose')}
            </Button>
            {value && allowRemove ? (
              <Button size="small" danger icon={<DeleteOutlined />} onClick={() => onChange?.('')} disabled={busy} data-testid={`${testId}-remove`}>
                {t('upload.remove')}
              </Button>
            ) : null}
          </Flex>
          {progress}
        </Flex>
      </Flex>
      {errorBox}
    </div>
  );
}
