/** POST /acupoint/del { id }: refused while a diagram shows it or a disease names it (shared/delete.tsx shows why). */
export const ACUPOINT_DELETE = '/acupoint/del';
