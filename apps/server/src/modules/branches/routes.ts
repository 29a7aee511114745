import { branchesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Branch setup (`/institutional/inspection-apply`): applications, and the platform's approve (creates the branch) or reject. */
export default defineRoutes(branchesApi, service, { snapshots: { branch_application: service.snapshot } });
