/** What other modules use of notices: raising one in the transaction of the change, and the scheduled check (serve.ts). */
export { actorOf, raiseNotice, type NoticeOf } from './raise';
export { CHECK_INTERVAL_MS, checkNotices, scheduledCheck } from './check';
