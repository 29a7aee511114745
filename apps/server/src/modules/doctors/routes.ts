import type { FastifyInstance } from 'fastify';
import { doctorAddBody, doctorEditBody, doctorIdQuery, doctorListQuery } from '@app/contract';
import { recordRoutes } from '../../lib/crud';
import * as service from './service';

/** Doctors (`/searchers/management`): lists mask the phone, the detail shows it in full. */
export default async function doctorRoutes(app: FastifyInstance) {
  recordRoutes(app, {
    prefix: 'doctor', page: 'DoctorManage', buttons: { add: 'doctor:add', edit: 'doctor:edit', del: 'doctor:delete' },
    schemas: { list: doctorListQuery, id: doctorIdQuery, add: doctorAddBody, edit: doctorEditBody },
    service,
  });
}
