import type { z } from 'zod';
import { PARAM_KEYS, PARAM_META, PARAM_SCHEMAS, type ParamKey, type ParamValues } from '@app/contract';

export type { ParamKey, ParamValues };

/**
 * Typed system parameters with their defaults; the server reads them where they apply. Types, bounds,
 * defaults and labels live in the contract (PARAM_META), so the client renders the same form.
 */
export const PARAM_DEFS = Object.fromEntries(PARAM_KEYS.map((k) => [k, { schema: PARAM_SCHEMAS[k], default: PARAM_META[k].default }])) as {
  [K in ParamKey]: { schema: z.ZodType<ParamValues[K]>; default: ParamValues[K] };
};
