import { useEffect, useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import FullscreenExitOutlined from '@ant-design/icons/es/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/es/icons/FullscreenOutlined';
import { useTranslation } from 'react-i18next';

export function FullscreenToggle() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [on, setOn] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = async () => {
    if (!document.fullscreenEnabled) {
      void message.warning(t('nav.fullscreenUnsupported'));
      return;
    }
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      void message.warning(t('nav.fullscreenUnsupported'));
    }
  };
  const label = on ? t('nav.exitFullscreen') : t('nav.fullscreen');
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={on ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} data-testid="fullscreen-toggle" />
    </Tooltip>
  );
}
