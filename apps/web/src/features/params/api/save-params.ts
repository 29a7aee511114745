import { useApiMutation } from '../../../components/list';
import { PARAMS_LIST } from './list-params';

/** POST /params/save (button params:edit): the changed values, all or nothing; field errors come back as `values.<key>`. */
export const useSaveParams = (successMessage: string) =>
  useApiMutation<{ values: Record<string, string | number> }, null>('/params/save', { invalidate: [PARAMS_LIST, '/params/public'], successMessage });
