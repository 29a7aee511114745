import { statsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { finance } from './finance';
import * as service from './service';

/** Stats dashboards (issue 13): one call per page (every figure at once) and the export of one table. */
export default defineRoutes(statsApi, {
  equipment: service.equipment,
  distribution: service.distribution,
  institution: service.institution,
  finance,
  exportTable: service.exportTable,
});
