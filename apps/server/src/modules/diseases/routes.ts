import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  diseaseBody, diseaseCategoryBody, diseaseCategoryEditBody, diseaseCategoryListQuery, diseaseEditBody, diseaseListQuery, masterIdQuery,
} from '@app/contract';
import { recordRoutes, route } from '../../lib/crud';
import * as service from './service';

/**
 * Disease categories (two levels: category -> disease) on the DiseaseManage page. Diseases use the
 * plain calls (/disease/list, /detail, /add, /edit, /del), categories the category_* calls; both are
 * written with the disease:add / disease:edit / disease:delete buttons.
 */
export default async function diseaseRoutes(app: FastifyInstance) {
  const page = 'DiseaseManage';
  const buttons = { add: 'disease:add', edit: 'disease:edit', del: 'disease:delete' };
  recordRoutes(app, {
    prefix: 'disease', page, buttons,
    schemas: { list: diseaseListQuery, id: masterIdQuery, add: diseaseBody, edit: diseaseEditBody },
    service,
  });
  route(app, 'GET', '/disease/tree', { page }, z.object({}), () => service.tree(app.db));
  route(app, 'GET', '/disease/category_list', { page }, diseaseCategoryListQuery, (q, auth) => service.categoryList(app.db, auth, q));
  route(app, 'GET', '/disease/category_detail', { page }, masterIdQuery, ({ id }, auth) => service.categoryDetail(app.db, auth, id));
  route(app, 'POST', '/disease/category_add', { button: buttons.add }, diseaseCategoryBody, (body, auth) => service.categoryAdd(app.db, auth, body));
  route(app, 'POST', '/disease/category_edit', { button: buttons.edit }, diseaseCategoryEditBody, (body, auth) => service.categoryEdit(app.db, auth, body));
  route(app, 'POST', '/disease/category_del', { button: buttons.del }, masterIdQuery, ({ id }, auth) => service.categoryRemove(app.db, auth, id));
}
