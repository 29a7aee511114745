import type { ParamItem } from '@app/contract/api/params';
import { useApiQuery } from '../../../components/list';

export const PARAMS_LIST = '/params/list';

/** GET /params/list: every parameter with its type, bounds, labels, default and current value. */
export const useParamsList = () => useApiQuery<ParamItem[]>(PARAMS_LIST, undefined, { refetchOnWindowFocus: false });
