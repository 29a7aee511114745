import { answer, defineEndpoints, get, noInput } from '../endpoint';

/** An institution as pickers show it (filters and forms). */
export interface InstitutionOption {
  id: number;
  name: string;
  grade: 1 | 2 | 3;
  parent_id: number | null;
}

export const institutionsApi = defineEndpoints('institutions', {
  /** Institutions the caller may pick: its own subtree (every institution for admins), in tree order. */
  options: get('/institution/options', { page: ['DeviceList', 'UserManage', 'DoctorManage'] }, noInput, answer<InstitutionOption[]>()),
});
