import { equipmentApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/**
 * Equipment: the device list (DeviceList), scoped to the caller's institution subtree, and the device
 * lifecycle (grade 0): add one or a batch from a file, edit, disable/enable, reset the device API secret.
 */
export default defineRoutes(equipmentApi, service, { snapshots: { device: service.snapshot } });
