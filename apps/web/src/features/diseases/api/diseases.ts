import type {
  DiseaseBody, DiseaseCategoryBody, DiseaseCategoryEditBody, DiseaseEditBody, DiseaseRow, DiseaseTreeNode,
} from '@app/contract/api/master';
import { useApiMutation, useApiQuery, useListQuery } from '../../../components/list';

export const DISEASE_TREE = '/disease/tree';
export const DISEASE_LIST = '/disease/list';
export const DISEASE_DELETE = '/disease/del';
export const CATEGORY_DELETE = '/disease/category_del';
const INVALIDATE = [DISEASE_TREE, DISEASE_LIST];

/** GET /disease/tree: the categories (with their diseases) in the editor's order: the left panel. */
export const useDiseaseTree = () => useApiQuery<DiseaseTreeNode[]>(DISEASE_TREE);
/** GET /disease/list: diseases filtered by category_id, keyword, status, meridian; sorted and paged. */
export const useDiseases = (query: Record<string, string | number>) => useListQuery<DiseaseRow>(DISEASE_LIST, query);

export const useAddCategory = () => useApiMutation<DiseaseCategoryBody, { id: number }>('/disease/category_add', { invalidate: INVALIDATE });
export const useEditCategory = () => useApiMutation<DiseaseCategoryEditBody>('/disease/category_edit', { invalidate: INVALIDATE });
export const useAddDisease = () => useApiMutation<DiseaseBody, { id: number }>('/disease/add', { invalidate: INVALIDATE });
export const useEditDisease = () => useApiMutation<DiseaseEditBody>('/disease/edit', { invalidate: INVALIDATE });
