import { distributionApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Distribution (grade 0): moving devices between platform stock and institutions, and the records of every move. */
export default defineRoutes(distributionApi, service, { snapshots: { distribution: service.snapshot } });
