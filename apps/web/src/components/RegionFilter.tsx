/**
 * The region filter of a list's filter bar: a Cascader that stops at any level (a province, a city or a
 * district), kept in the URL as one code (`region=330100`) and sent as such; the server matches the
 * level the code names.
 */
import Form from 'antd/es/form';
import { regionPath } from '@app/contract/api/regions';
import type { FilterCodec } from './list/codecs';
import { RegionCascader } from './RegionCascader';

/** URL `region=330100` <-> the Cascader's ['330000', '330100']. */
export function regionFilterCodec(name = 'region'): FilterCodec {
  return {
    fields: [name],
    toForm: (f) => {
      const path = f[name] ? regionPath(f[name]) : [];
      return { [name]: path.length ? path : undefined };
    },
    fromForm: (v) => {
      const path = v[name] as string[] | null | undefined;
      return { [name]: path?.length ? path[path.length - 1] : null };
    },
  };
}

/** `Form.Item name="region"` with a Cascader that may stop at any level; pair it with regionFilterCodec. */
export function RegionFilter({ label, placeholder, name = 'region', width = 240 }: { label: string; placeholder?: string; name?: string; width?: number }) {
  return (
    <Form.Item name={name} label={label}>
      <RegionCascader changeOnSelect placeholder={placeholder} style={{ width }} data-testid="filter-region" />
    </Form.Item>
  );
}
