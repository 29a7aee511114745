import { doctorsApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/** Doctors (`/searchers/management`): list/detail/add/edit/del; lists mask the phone, the detail shows it in full. */
export default defineRoutes(doctorsApi, service, { snapshots: { doctor: service.snapshot } });
