/** Read-only view of a diagram: the picture with its markers and the list of its acupoints. */
import { useState } from 'react';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { SchematicDetail } from '@app/contract/api/schematics';
import { Access } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useText } from '../../components/l10n-text';
import { MarkerCanvas } from './MarkerCanvas';
import { markerKeys, percent } from './markers';
import { useSchematicDetail } from './api';
import { KIND_COLOR } from './kinds';

export function SchematicPreview({ id, onClose, onEdit }: { id: number | null; onClose: () => void; onEdit: (d: SchematicDetail) => void }) {
  const { t } = useTranslation('schematics');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const query = useSchematicDetail(id);
  const d = query.data && query.data.id === id ? query.data : undefined;
  const [active, setActive] = useState<number | null>(null);
  const markers = (d?.markers ?? []).map((m) => ({ ...m, name: text(m.name) }));
  const keys = markerKeys(markers);

  return (
    <Modal
      open={id != null}
      onCancel={onClose}
      title={d ? text(d.title) : t('preview.title')}
      width={Math.min(960, window.innerWidth - 32)}
      destroyOnHidden
      data-testid="schematic-preview"
      footer={
        <Flex justify="flex-end" gap={8}>
          {d ? (
            <Access sign="schematic:edit">
              <Button onClick={() => onEdit(d)} data-testid="schematic-preview-edit">
                {t('action.editMarkers')}
              </Button>
            </Access>
          ) : null}
          <Button type="primary" onClick={onClose}>
            {t('common:common.close')}
          </Button>
        </Flex>
      }
    >
      {!d ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin />
        </Flex>
      ) : (
        <div className="schematic-preview">
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 3 }}
            items={[
              { key: 'kind', label: t('col.kind'), children: <Tag color={KIND_COLOR[d.kind]}>{t(`kind.${d.kind}`)}</Tag> },
              { key: 'size', label: t('col.size'), children: `${formatNumber(d.width, lang)} × ${formatNumber(d.height, lang)}` },
              { key: 'markers', label: t('col.markers'), children: formatNumber(d.markers.length, lang) },
            ]}
            style={{ marginBottom: 12 }}
          />
          <div className="marker-editor-body">
            <div className="marker-stage">
              <MarkerCanvas image={d.image} alt={text(d.title)} markers={markers} active={active} onActive={setActive} maxHeight="60vh" testId="preview-canvas" />
            </div>
            <aside className="marker-list" aria-label={t('editor.markers')}>
              <div className="marker-list-head">{t('editor.markerCount', { count: markers.length })}</div>
              {markers.length ? (
                <ol className="marker-list-items">
                  {markers.map((m, i) => (
                    <li key={keys[i]} className={active === i ? 'is-active' : undefined} onMouseEnter={() => setActive(i)} onMouseLeave={() => setActive(null)}>
                      <span className="marker-list-index">{i + 1}</span>
                      <span className="marker-list-text">
                        <span className="mono">{m.code}</span> <span className="marker-list-name">{m.name}</span>
                        <span className="marker-list-pos">
                          {percent(m.x)} · {percent(m.y)}
                        </span>
                      </span>
                    </li>
                  ))}
                </ol>
              ) : (
                <div className="marker-list-empty">{t('editor.noMarkers')}</div>
              )}
            </aside>
          </div>
        </div>
      )}
    </Modal>
  );
}
