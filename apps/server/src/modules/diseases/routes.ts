import { diseasesApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import * as service from './service';

/**
 * Disease categories (two levels: category -> disease) on the DiseaseManage page. Diseases use the
 * plain calls (/disease/list, /detail, /add, /edit, /del), categories the category_* calls; both are
 * written with the disease:add / disease:edit / disease:delete buttons.
 */
export default defineRoutes(diseasesApi, service, { snapshots: { disease_category: service.categorySnapshot, disease: service.snapshot } });
