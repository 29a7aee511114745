/** What other modules use of the device API: the inspection path itself (demo data goes through it) and the analysis's master data. */
export { loadAnalysisMaster } from './master';
export { assertWorking, type Device, inspect } from './service';
