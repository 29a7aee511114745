import { paramsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** System parameters (`/system/params-setting`): typed settings, read at every use; the public pair for the login page. */
export default defineRoutes(paramsApi, service, { snapshots: { params: service.snapshot } });
