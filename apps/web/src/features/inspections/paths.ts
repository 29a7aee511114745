import { findRoute } from '@app/contract/routes';

/** Where the report and the result of an inspection open (the route table's hidden pages). */
const at = (name: 'InspectionReport' | 'InspectionResult', id: number | string) => findRoute(name)!.path.replace(':id', String(id));
export const reportPath = (id: number | string) => at('InspectionReport', id);
export const resultPath = (id: number | string) => at('InspectionResult', id);
