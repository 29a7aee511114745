/**
 * What other modules use of sign-in: modify_field itself (tests reach its rules with a caller the API
 * cannot produce). The account rules other modules share live below them all: `lib/accounts.ts`
 * (passwords, the last super-admin), `lib/errors.ts` (`refusal`), `http/access.ts` (`adminActor`).
 */
export { modifyField } from './service';
