import { defineEndpoints } from '../endpoint';
export interface InstitutionOption {
  id: number;
  name: string;
  grade: 1 | 2 | 3;
  parent_id: number | null;
}

// STUB: the module's endpoint table (to be filled).
export const institutionsApi = defineEndpoints('institutions', {});
