import { useMemo } from 'react';
import TreeSelect from 'antd/es/tree-select';
import type { TreeSelectProps } from 'antd';
import type { InstitutionOption } from '@app/contract/api/institutions';
import { useEndpoint } from './list/endpoint-queries';

interface TreeNode {
  value: number;
  title: string;
  key: number;
  children: TreeNode[];
}

/** Builds the tree of `institutions.options` (the caller's subtree; roots are nodes whose parent is absent). */
export function institutionTree(options: InstitutionOption[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>(options.map((o) => [o.id, { value: o.id, key: o.id, title: o.name, children: [] }]));
  const roots: TreeNode[] = [];
  for (const o of options) {
    const node = nodes.get(o.id)!;
    const parent = o.parent_id != null ? nodes.get(o.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Institutions the caller may pick (its own subtree), cached for 5 minutes. */
export function useInstitutionOptions() {
  return useEndpoint('institutions.options', undefined, { staleTime: 5 * 60_000 });
}

/** A searchable TreeSelect of the caller's institutions; value = institution id. */
export function InstitutionSelect(props: Omit<TreeSelectProps<number>, 'treeData'>) {
  const { data, isFetching } = useInstitutionOptions();
  const treeData = useMemo(() => institutionTree(data ?? []), [data]);
  return <TreeSelect<number> allowClear showSearch={{ treeNodeFilterProp: 'title' }} treeDefaultExpandAll loading={isFetching} treeData={treeData} popupMatchSelectWidth={false} {...props} />;
}
