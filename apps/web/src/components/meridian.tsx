/** Meridian codes with their names in the user's language (`common:meridian.*`), and their tags. */
import { useCallback } from 'react';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { YIN_MERIDIANS, type AcupointMeridian, type Meridian } from '@app/contract/api/meridians';
import './master-data.css';

const COLOR: Record<'yin' | 'yang' | 'vessel' | 'extra', string> = { yin: 'geekblue', yang: 'volcano', vessel: 'purple', extra: 'default' };

export function meridianGroup(m: AcupointMeridian): keyof typeof COLOR {
  if (m === 'CV' || m === 'GV') return 'vessel';
  if (m === 'EX') return 'extra';
  return (YIN_MERIDIANS as readonly string[]).includes(m) ? 'yin' : 'yang';
}

/** `const name = useMeridianName(); name('LU')` -> "Lung"; `label('LU')` -> "LU · Lung". */
export function useMeridianName() {
  const { t } = useTranslation();
  const name = useCallback((m: AcupointMeridian) => t(`meridian.${m}`), [t]);
  const label = useCallback((m: AcupointMeridian) => `${m} · ${t(`meridian.${m}`)}`, [t]);
  return { name, label };
}

export function MeridianTag({ m, full = false }: { m: AcupointMeridian | Meridian; full?: boolean }) {
  const { name } = useMeridianName();
  const tag = (
    <Tag color={COLOR[meridianGroup(m)]} variant="filled" className="meridian-tag">
      {full ? `${m} · ${name(m)}` : m}
    </Tag>
  );
  return full ? tag : <Tooltip title={name(m)}>{tag}</Tooltip>;
}
