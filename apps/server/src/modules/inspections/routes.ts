import { inspectionsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Inspections (`/inspection/management`), the report and result data, recompute and treatment sessions. */
export default defineRoutes(inspectionsApi, service, { snapshots: { inspection: service.snapshot, treatment_session: service.sessionSnapshot } });
