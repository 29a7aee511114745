import { sessionsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** One's own sessions (`/session/*`): list, end one, end the others; grade 0 ends another account's. */
export default defineRoutes(sessionsApi, service);
