import { auditApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** The audit trail (`/system/audit-log`): read-only; the rows are written by http/endpoints.ts. */
export default defineRoutes(auditApi, service);
