import { useApiMutation } from '../../../components/list';
import { ADMIN_LIST_PATH } from './list-admins';

export const MODIFY_FIELD_PATH = '/member/modify_field';

interface StatusBody { [key: string]: unknown; id: number; field: 'status'; value: 0 | 1 }
interface PasswordBody { [key: string]: unknown; id: number; field: 'password'; value: string }

/** POST /member/modify_field {id, field: 'status', value} (admin:status); disabling ends the user's sessions. */
export const useSetAdminStatus = (successMessage: string) => useApiMutation<StatusBody>(MODIFY_FIELD_PATH, { invalidate: [ADMIN_LIST_PATH], successMessage });
/** POST /member/modify_field {id, field: 'password', value} (admin:reset-password); the user's sessions end. */
export const useResetAdminPassword = (successMessage: string) => useApiMutation<PasswordBody>(MODIFY_FIELD_PATH, { successMessage });
