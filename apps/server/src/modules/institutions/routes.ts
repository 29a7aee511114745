import { institutionsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Institution pickers: the caller's own subtree. */
export default defineRoutes(institutionsApi, service);
