import App from 'antd/es/app';
import TranslationOutlined from '@ant-design/icons/es/icons/TranslationOutlined';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@app/contract/i18n';
import { useSettings } from '../lib/settings';
import { setLanguage } from '../lib/i18n';
import { LANG_LABELS } from '../lib/lang';
import { DropdownTrigger } from './DropdownTrigger';

/** 中文 / English / Español / 日本語: switches every string, antd's and dayjs' locale; saved. */
export function LangPicker({ showLabel = false, className }: { showLabel?: boolean; className?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useSettings((s) => s.lang);
  return (
    <DropdownTrigger
      testId="lang-picker"
      className={className}
      icon={<TranslationOutlined />}
      label={t('nav.language')}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGS.map((l) => ({
          key: l,
          label: (
            <span data-testid={`lang-${l}`} lang={l}>
              {LANG_LABELS[l]}
            </span>
          ),
        })),
        onClick: ({ key }) => {
          if (key === lang) return;
          setLanguage(key as Lang);
          void message.success(t('nav.languageChanged'));
        },
      }}
    >
      {showLabel ? LANG_LABELS[lang] : null}
    </DropdownTrigger>
  );
}
