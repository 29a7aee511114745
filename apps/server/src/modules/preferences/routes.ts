import { preferencesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Lists people can shape (`/preference/*`): the caller's own columns and saved views, per list. */
export default defineRoutes(preferencesApi, service, { snapshots: { list_view: service.viewSnapshot, list_columns: service.columnsSnapshot } });
