/**
 * The 4-language input of master-data forms: one field per language (zh, en, es, ja) in a 2 x 2 grid,
 * so every language and its error stays visible (tabs would hide a missing translation). Fields are
 * named `[name, lang]`, so server messages such as `name.zh` land under the right box.
 * Strings: `common:form.l10nRequired`, `form.maxLength`, `form.fallsBackToEn`.
 */
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Space from 'antd/es/space';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@app/contract/i18n';
import { MASTER_LIMITS } from '@app/contract/api/meridians';
import { LANG_LABELS } from '../lib/lang';
import './master-data.css';

export interface L10nFieldsProps {
  name: string;
  label: string;
  /** zh and en required (the contract's names); es and ja fall back to en. */
  required?: boolean;
  textarea?: boolean;
  max?: number;
  rows?: number;
  testId?: string;
  extra?: string;
}

const REQUIRED_LANGS: Lang[] = ['zh', 'en'];

export function L10nFields({ name, label, required = false, textarea = false, max = textarea ? MASTER_LIMITS.textMax : MASTER_LIMITS.nameMax, rows = 3, testId, extra }: L10nFieldsProps) {
  const { t } = useTranslation();
  const rulesFor = (lang: Lang): Rule[] => [
    ...(required && REQUIRED_LANGS.includes(lang) ? [{ required: true, whitespace: true, message: t('form.l10nRequired', { field: label, lang: LANG_LABELS[lang] }) }] : []),
    { max, message: t('form.maxLength', { max }) },
  ];
  return (
    <Form.Item label={label} required={required} extra={extra} className="l10n-fields" data-testid={testId} style={{ marginBottom: 8 }}>
      <Row gutter={[12, 0]}>
        {LANGS.map((lang) => {
          const tag = (
            <span className="l10n-lang" lang={lang}>
              {LANG_LABELS[lang]}
              {required && REQUIRED_LANGS.includes(lang) ? (
                <span className="l10n-req" aria-hidden>
                  *
                </span>
              ) : null}
            </span>
          );
          const placeholder = required && !REQUIRED_LANGS.includes(lang) ? t('form.fallsBackToEn') : undefined;
          return (
            <Col xs={24} sm={12} key={lang}>
              {textarea ? (
                <div className="l10n-area">
                  <div className="l10n-area-head">{tag}</div>
                  <Form.Item name={[name, lang]} rules={rulesFor(lang)} style={{ marginBottom: 12 }}>
                    <Input.TextArea rows={rows} maxLength={max} aria-label={`${label} (${LANG_LABELS[lang]})`} lang={lang} data-testid={testId ? `${testId}-${lang}` : undefined} />
                  </Form.Item>
                </div>
              ) : (
                <Form.Item style={{ marginBottom: 12 }}>
                  <Space.Compact block>
                    <Space.Addon className="l10n-addon">{tag}</Space.Addon>
                    <Form.Item name={[name, lang]} rules={rulesFor(lang)} noStyle>
                      <Input maxLength={max} placeholder={placeholder} aria-label={`${label} (${LANG_LABELS[lang]})`} lang={lang} data-testid={testId ? `${testId}-${lang}` : undefined} />
                    </Form.Item>
                  </Space.Compact>
                </Form.Item>
              )}
            </Col>
          );
        })}
      </Row>
    </Form.Item>
  );
}
