import { defineEndpoints } from '../endpoint';

// STUB: replaced by the module's contract (schemas, types and its endpoint table).
export const uploadsApi = defineEndpoints('uploads', {});
