import { useTranslation } from 'react-i18next';

/** Full-page loading state (pure CSS: it is shown before antd's heavier parts are loaded). */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className="full-page-spin" role="status" aria-live="polite">
      <span className="css-spinner" aria-hidden />
      <span className="full-page-spin-text">{t('app.loading')}</span>
    </div>
  );
}
