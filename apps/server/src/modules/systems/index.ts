/** What other modules may use of the systems module. */
export { seededSystemIds } from './seed';
