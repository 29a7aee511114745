import { equipmentApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Equipment: the device list (DeviceList), scoped to the caller's institution subtree. Read-only. */
export default defineRoutes(equipmentApi, service);
