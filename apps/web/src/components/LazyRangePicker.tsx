/**
 * A date-range picker that downloads antd's picker (the largest part of a list page) only when the
 * user reaches for it: until then a look-alike read-only input shows the current range. Drop-in for
 * `DatePicker.RangePicker` inside a Form.Item (value: [Dayjs | null, Dayjs | null] | null).
 */
import { lazy, Suspense, useState } from 'react';
import Input from 'antd/es/input/Input';
import CalendarOutlined from '@ant-design/icons/es/icons/CalendarOutlined';
import type { Dayjs } from 'dayjs';
import type { RangePickerProps } from 'antd/es/date-picker';
import { useIsPhone } from '../lib/media';

type Value = [Dayjs | null, Dayjs | null] | null | undefined;

const RealRangePicker = lazy(() => import('antd/es/date-picker').then((m) => ({ default: m.default.RangePicker })));

export interface LazyRangePickerProps extends Omit<RangePickerProps, 'value' | 'onChange' | 'placeholder'> {
  value?: Value;
  onChange?: (value: Value) => void;
  placeholder?: [string, string];
  id?: string;
}

export function LazyRangePicker(props: LazyRangePickerProps) {
  const { value, placeholder, style, id, ...rest } = props;
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  // On a phone the dates are picked on the calendar (one month at a time): typing would raise the keyboard over it.
  const isPhone = useIsPhone();

  const text = value && (value[0] || value[1]) ? `${value[0]?.format('YYYY-MM-DD') ?? ''} ~ ${value[1]?.format('YYYY-MM-DD') ?? ''}` : '';
  const stand = (
    <Input
      id={id}
      readOnly
      value={text}
      placeholder={placeholder ? `${placeholder[0]} ~ ${placeholder[1]}` : undefined}
      suffix={<CalendarOutlined style={{ color: 'rgba(0,0,0,0.25)' }} />}
      style={style}
      onMouseEnter={() => setWanted(true)}
      onFocus={() => {
        setWanted(true);
        setOpen(true);
      }}
      onClick={() => {
        setWanted(true);
        setOpen(true);
      }}
      aria-haspopup="dialog"
    />
  );
  if (!wanted) return stand;
  return (
    <Suspense fallback={stand}>
      <RealRangePicker
        {...rest}
        id={id}
        style={style}
        value={value as never}
        onChange={(v) => props.onChange?.(v as Value)}
        placeholder={placeholder}
        open={open}
        onOpenChange={setOpen}
        inputReadOnly={rest.inputReadOnly ?? isPhone}
        autoFocus={open}
      />
    </Suspense>
  );
}
