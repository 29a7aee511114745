/**
 * What other modules use of sign-in and accounts: the admin's actor, refusals of the shared rules,
 * the password and last-super-admin rules, and modify_field itself (tests reach its rules with a
 * caller the API cannot produce).
 */
export { adminActor, assertAnotherSuperAdmin, modifyField, refusal, validatePassword } from './service';
