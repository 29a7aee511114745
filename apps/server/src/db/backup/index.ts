/** Backup and restore of the whole database as one file: see ./format.ts for the file and docs/decisions.md, "Backup and restore". */
export * from './format';
export * from './write';
export * from './read';
export * from './connection';
export * from './restore';
