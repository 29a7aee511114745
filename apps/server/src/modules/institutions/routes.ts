import { institutionsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Institutions (`/institutional/index`): the tree, scoped to the caller's subtree; pickers; create, edit, status, password, move. */
export default defineRoutes(institutionsApi, service, { snapshots: { institution: service.snapshot } });
