import { usersApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/**
 * Users, the people who are inspected (`/user/management`): list/detail/add/edit/del. Lists mask phone
 * and ID numbers; the full values come only from GET /user/detail (the user:detail button, not just the page).
 */
export default defineRoutes(usersApi, service, { snapshots: { user: service.snapshot } });
