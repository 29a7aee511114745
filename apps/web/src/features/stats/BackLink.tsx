import Button from 'antd/es/button';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { statsHref } from './links';

/** Back to the device stats (the hidden pages are reached from there), keeping the range. */
export function BackLink({ search }: { search: string }) {
  const { t } = useTranslation('stats');
  return (
    <Link to={statsHref('equipment', search)} style={{ marginLeft: 'auto' }} data-testid="link-equipment">
      <Button icon={<ArrowLeftOutlined />}>{t('links.equipment')}</Button>
    </Link>
  );
}
