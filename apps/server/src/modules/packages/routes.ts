import { packagesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Packages (`/package-manage`): list/detail/add/edit/del, plus on sale / off sale. */
export default defineRoutes(packagesApi, service, { snapshots: { package: service.snapshot } });
