import { inject } from 'vitest';

/**
 * Every server test file runs on the database server of the run (test/global-setup.ts): tests that start
 * server processes or open connections of their own find it in DATABASE_URL, as in production.
 */
process.env.DATABASE_URL = inject('testDatabase').url;
