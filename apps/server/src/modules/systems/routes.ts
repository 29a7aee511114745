import { systemsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** System categories: body systems and their subsystems/organs (one table, two levels). */
export default defineRoutes(systemsApi, service, { snapshots: { system: service.snapshot } });
