import { regionsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** The region table (provinces, cities, districts) for address forms, region filters and names. */
export default defineRoutes(regionsApi, service);
