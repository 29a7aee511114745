/**
 * A list's toolbar on a phone: its buttons folded behind one "More actions" button (a disclosure: the
 * buttons stay mounted, so an export's progress or a selection count keeps going while it is closed).
 * The panel closes on Escape, a tap outside, or a tap on an action that is not itself a menu (an export's
 * format menu keeps it open).
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import EllipsisOutlined from '@ant-design/icons/es/icons/EllipsisOutlined';
import { useTranslation } from 'react-i18next';
import './mobile.css';

/** Popups of antd that belong to something inside the panel: a tap in them is not a tap outside. */
const POPUPS = '.ant-dropdown, .ant-select-dropdown, .ant-picker-dropdown, .ant-popover, .ant-tooltip, .ant-modal-root, .ant-drawer';

export function ToolbarFold({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [filled, setFilled] = useState(true);
  const panel = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();

  // Buttons inside may all be withheld (<Access>): then there is nothing to fold and no trigger.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const check = () => setFilled(el.childElementCount > 0 && !!el.querySelector('button, a[href], input, [role="radio"], [tabindex]'));
    check();
    const watch = new MutationObserver(check);
    watch.observe(el, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, []);

  // A tap on an action closes the panel; one on a menu of its own (an export's formats) leaves it open.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const onClick = (e: MouseEvent) => {
      const button = (e.target as Element).closest('button, a[href]');
      if (button && el.contains(button) && !button.matches('.ant-dropdown-trigger, [aria-haspopup]')) setOpen(false);
    };
    el.addEventListener('click', onClick);
    return () => el.removeEventListener('click', onClick);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Element | null;
      if (!target || panel.current?.contains(target) || trigger.current?.contains(target) || target.closest(POPUPS)) return;
      setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="toolbar-fold">
      {filled ? (
        <Button
          ref={trigger}
          icon={<EllipsisOutlined />}
          aria-label={t('phone.moreActions')}
          title={t('phone.moreActions')}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
          data-testid="toolbar-fold"
        />
      ) : null}
      <div id={id} ref={panel} className="toolbar-fold-panel" hidden={!open} data-testid="toolbar-fold-panel">
        {children}
      </div>
    </div>
  );
}
