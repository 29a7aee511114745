import { docsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** The OpenAPI document and the API reference page. */
export default defineRoutes(docsApi, service);
