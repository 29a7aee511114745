import { mfaApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** The second factor (`/mfa/*`) and the sign-in's second step (`/login/mfa`). */
export default defineRoutes(mfaApi, service, { snapshots: { mfa: service.snapshot } });
