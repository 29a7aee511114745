/**
 * The marker editor of a diagram (a Form.Item child: value = markers). Choose an acupoint, click on the
 * picture to place it; drag a marker to move it; click a marker (or its row) to remove it.
 */
import { useMemo, useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import Tooltip from 'antd/es/tooltip';
import AimOutlined from '@ant-design/icons/es/icons/AimOutlined';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { AcupointOption } from '@app/contract/api/acupoints';
import type { SchematicMarker } from '@app/contract/api/schematics';
import { useText } from '../../components/l10n-text';
import { MarkerCanvas, type CanvasMarker } from './MarkerCanvas';
import { MAX_MARKERS, markerKeys, percent } from './markers';

export interface MarkerEditorProps {
  value?: SchematicMarker[];
  onChange?: (markers: SchematicMarker[]) => void;
  image?: string;
  alt: string;
  options: AcupointOption[];
  optionsLoading?: boolean;
  onImageLoad?: (w: number, h: number) => void;
}

export function useCanvasMarkers(markers: (SchematicMarker & { code?: string; name?: unknown })[], options: AcupointOption[]): CanvasMarker[] {
  const text = useText();
  return useMemo(() => {
    const byId = new Map(options.map((o) => [o.id, o]));
    return markers.map((m) => {
      const o = byId.get(m.acupoint_id);
      return { acupoint_id: m.acupoint_id, x: m.x, y: m.y, code: o?.code ?? m.code ?? `#${m.acupoint_id}`, name: o ? text(o.name) : '' };
    });
  }, [markers, options, text]);
}

export function MarkerEditor({ value, onChange, image, alt, options, optionsLoading, onImageLoad }: MarkerEditorProps) {
  const { t } = useTranslation('schematics');
  const { message } = App.useApp();
  const text = useText();
  const markers = value ?? [];
  const [acupointId, setAcupointId] = useState<number | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const shown = useCanvasMarkers(markers, options);
  const keys = markerKeys(shown);

  const selectOptions = useMemo(
    () => options.map((o) => ({ value: o.id, label: `${o.code} · ${text(o.name)}`, search: `${o.code} ${o.name.zh} ${o.name.en} ${o.name.es} ${o.name.ja}`.toLowerCase() })),
    [options, text],
  );

  const place = (x: number, y: number) => {
    if (acupointId == null) {
      void message.warning({ content: t('editor.chooseFirst'), key: 'marker-choose' });
      return;
    }
    if (markers.length >= MAX_MARKERS) {
      void message.warning({ content: t('editor.tooMany', { max: MAX_MARKERS }), key: 'marker-max' });
      return;
    }
    onChange?.([...markers, { acupoint_id: acupointId, x, y }]);
  };
  const move = (index: number, x: number, y: number) => onChange?.(markers.map((m, i) => (i === index ? { ...m, x, y } : m)));
  const remove = (index: number) => {
    setActive(null);
    onChange?.(markers.filter((_, i) => i !== index));
  };

  return (
    <div className="marker-editor" data-testid="marker-editor">
      <Flex gap={8} align="center" wrap className="marker-toolbar">
        <AimOutlined aria-hidden />
        <Select
          showSearch={{ filterOption: (input, opt) => !!opt && (opt as { search: string }).search.includes(input.trim().toLowerCase()) }}
          allowClear
          loading={optionsLoading}
          value={acupointId ?? undefined}
          onChange={(v) => setAcupointId(v ?? null)}
          options={selectOptions}
          placeholder={t('editor.choosePlaceholder')}
          style={{ width: 280, maxWidth: '100%' }}
          aria-label={t('editor.choose')}
          data-testid="marker-acupoint"
        />
        <span className="editor-hint">{image ? t('editor.hint') : t('editor.noImageHint')}</span>
      </Flex>
      <div className="marker-editor-body">
        <div className={`marker-stage${acupointId != null ? ' is-armed' : ''}`}>
          {image ? (
            <MarkerCanvas image={image} alt={alt} markers={shown} active={active} onActive={setActive} onPlace={place} onMove={move} onRemove={remove} onImageLoad={onImageLoad} maxHeight="62vh" />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('editor.noImage')} />
          )}
        </div>
        <aside className="marker-list" aria-label={t('editor.markers')}>
          <Flex justify="space-between" align="center" className="marker-list-head">
            <span>{t('editor.markerCount', { count: markers.length })}</span>
            {markers.length ? (
              <Button size="small" type="link" danger onClick={() => onChange?.([])} data-testid="marker-clear">
                {t('editor.clear')}
              </Button>
            ) : null}
          </Flex>
          {markers.length ? (
            <ol className="marker-list-items" data-testid="marker-list">
              {shown.map((m, i) => (
                <li key={keys[i]} className={active === i ? 'is-active' : undefined} onMouseEnter={() => setActive(i)} onMouseLeave={() => setActive(null)}>
                  <span className="marker-list-index">{i + 1}</span>
                  <span className="marker-list-text">
                    <span className="mono">{m.code}</span> <span className="marker-list-name">{m.name}</span>
                    <span className="marker-list-pos">
                      {percent(m.x)} · {percent(m.y)}
                    </span>
                  </span>
                  <Tooltip title={t('editor.removeMarker')}>
                    <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`${t('editor.removeMarker')} ${m.code}`} onClick={() => remove(i)} />
                  </Tooltip>
                </li>
              ))}
            </ol>
          ) : (
            <div className="marker-list-empty">{t('editor.noMarkers')}</div>
          )}
        </aside>
      </div>
    </div>
  );
}
