/**
 * A diagram image with its markers. Markers are positioned in percent of the image box, so they stay
 * on the same spot of the picture at any display size. Editable: a click on the picture places a
 * marker, a drag moves one, a click on a marker removes it. From the keyboard: Enter on the picture
 * places a marker in the middle, the arrow keys move the focused marker (Shift: ten times as far),
 * Enter on a marker removes it.
 */
import { useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SchematicMarker } from '@app/contract/api/schematics';
import { markerKeys, nudge, percent, toFraction } from './markers';

export interface CanvasMarker extends SchematicMarker {
  code: string;
  name: string;
}

export interface MarkerCanvasProps {
  image: string;
  alt: string;
  markers: CanvasMarker[];
  /** Index of the marker to highlight (hovered in the list). */
  active?: number | null;
  onActive?: (index: number | null) => void;
  /** Editing: place at a fraction of the image. */
  onPlace?: (x: number, y: number) => void;
  onMove?: (index: number, x: number, y: number) => void;
  onRemove?: (index: number) => void;
  onImageLoad?: (naturalWidth: number, naturalHeight: number) => void;
  /** Largest displayed height (CSS length); the width follows the image's proportions. */
  maxHeight?: string;
  testId?: string;
}

const DRAG_THRESHOLD = 4;
/** How far an arrow key moves a marker (fraction of the image); with Shift, ten times as far. */
const KEY_STEP = 0.005;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export function MarkerCanvas(props: MarkerCanvasProps) {
  const { image, alt, markers, active, onActive, onPlace, onMove, onRemove, onImageLoad, maxHeight = '70vh', testId = 'marker-canvas' } = props;
  const { t } = useTranslation('schematics');
  const img = useRef<HTMLImageElement>(null);
  const drag = useRef<{ index: number; startX: number; startY: number; moved: boolean } | null>(null);
  const [dragPos, setDragPos] = useState<{ index: number; x: number; y: number } | null>(null);
  const editable = !!onPlace;
  const keys = markerKeys(markers);

  const fractionAt = (clientX: number, clientY: number) => {
    const r = img.current?.getBoundingClientRect();
    return r ? toFraction(clientX, clientY, r) : null;
  };

  const onCanvasClick = (e: ReactMouseEvent) => {
    if (!onPlace) return;
    // Enter or Space on the picture has no pointer position: the marker goes in the middle (the arrow keys move it).
    if (e.detail === 0) {
      onPlace(0.5, 0.5);
      return;
    }
    const f = fractionAt(e.clientX, e.clientY);
    if (f) onPlace(f.x, f.y);
  };

  const onPointerDown = (index: number) => (e: ReactPointerEvent<HTMLButtonElement>) => {
    if (!editable || e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { index, startX: e.clientX, startY: e.clientY, moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) < DRAG_THRESHOLD) return;
    d.moved = true;
    const f = fractionAt(e.clientX, e.clientY);
    if (f) setDragPos({ index: d.index, ...f });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    if (d.moved) {
      const f = fractionAt(e.clientX, e.clientY);
      if (f) onMove?.(d.index, f.x, f.y);
    }
    setDragPos(null);
    // The click that follows knows whether this was a drag.
    setTimeout(() => {
      drag.current = null;
    }, 0);
  };
  const onMarkerKey = (index: number, m: CanvasMarker) => (e: ReactKeyboardEvent) => {
    const arrow = ARROWS[e.key];
    if (!editable || !onMove || !arrow) return;
    e.preventDefault();
    const step = e.shiftKey ? KEY_STEP * 10 : KEY_STEP;
    const to = nudge(m, arrow[0] * step, arrow[1] * step);
    onMove(index, to.x, to.y);
  };
  const onMarkerClick = (index: number) => (e: ReactMouseEvent) => {
    e.stopPropagation();
    if (!editable) return;
    if (drag.current?.moved) return;
    drag.current = null;
    onRemove?.(index);
  };

  const picture = (
    <img
      ref={img}
      src={image}
      alt={alt}
      className="marker-image"
      draggable={false}
      data-testid={`${testId}-image`}
      onLoad={(e) => onImageLoad?.(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight)}
    />
  );

  return (
    <div className={`marker-canvas${editable ? ' is-editable' : ''}`} data-testid={testId} style={{ ['--marker-max-h' as string]: maxHeight }}>
      {editable ? (
        <button type="button" className="marker-place" onClick={onCanvasClick} aria-label={t('editor.placeOnImage')} data-testid={`${testId}-place`}>
          {picture}
        </button>
      ) : (
        picture
      )}
      {markers.map((m, i) => {
        const pos = dragPos?.index === i ? dragPos : m;
        const label = `${m.code} ${m.name} (${percent(pos.x)}, ${percent(pos.y)})`;
        return (
          <button
            type="button"
            key={keys[i]}
            className={`marker-dot${active === i ? ' is-active' : ''}${dragPos?.index === i ? ' is-dragging' : ''}`}
            style={{ left: `${pos.x * 100}%`, top: `${pos.y * 100}%` }}
            title={editable ? `${label} — ${t('editor.markerHint')}` : label}
            aria-label={editable ? `${label}: ${t('editor.removeMarker')}` : label}
            tabIndex={editable ? 0 : -1}
            onPointerDown={onPointerDown(i)}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => {
              drag.current = null;
              setDragPos(null);
            }}
            onClick={onMarkerClick(i)}
            onKeyDown={onMarkerKey(i, m)}
            onMouseEnter={() => onActive?.(i)}
            onMouseLeave={() => onActive?.(null)}
            data-testid="marker-dot"
            data-code={m.code}
            data-x={m.x}
            data-y={m.y}
          >
            <span className="marker-label">{m.code}</span>
          </button>
        );
      })}
    </div>
  );
}
