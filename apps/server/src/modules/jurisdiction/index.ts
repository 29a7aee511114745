/** What other modules use of access control: the audit trail's view of an admin account (modify_field writes one). */
export { snapshotAdmin } from './admins';
