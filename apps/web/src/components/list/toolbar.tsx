/** The pieces every list page repeats around ListPage: the "create" button of its add grant, the keyword filter. */
import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import type { ButtonKey } from '@app/contract/routes';
import { Access } from '../../lib/access';

/** A primary "create" button, shown only to callers holding `sign` (the server checks the same button key). */
export function CreateButton({ sign, onClick, testId, disabled, children }: { sign: ButtonKey; onClick: () => void; testId: string; disabled?: boolean; children: ReactNode }) {
  return (
    <Access sign={sign}>
      <Button type="primary" icon={<PlusOutlined />} onClick={onClick} disabled={disabled} data-testid={testId}>
        {children}
      </Button>
    </Access>
  );
}

/** The `keyword` filter of a FilterBar. */
export function KeywordFilter({ label, placeholder, width = 200 }: { label: string; placeholder: string; width?: number }) {
  return (
    <Form.Item name="keyword" label={label}>
      <Input allowClear placeholder={placeholder} style={{ width }} data-testid="filter-keyword" />
    </Form.Item>
  );
}
