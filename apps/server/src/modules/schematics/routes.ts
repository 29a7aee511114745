import { schematicsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Schematic diagrams: an uploaded image and acupoint markers at fractional (x, y) positions. */
export default defineRoutes(schematicsApi, service, { snapshots: { schematic: service.snapshot } });
