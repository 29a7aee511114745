import { acupointsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Acupoints, and their treatment actions (the hidden AcupointAction page, button acupoint:action). */
export default defineRoutes(acupointsApi, service, { snapshots: { acupoint: service.snapshot } });
