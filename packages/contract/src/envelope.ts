import type { Code } from './constants';

export interface OkEnvelope<T> {
  code: 200;
  datas: T;
}
export interface BadRequestEnvelope {
  code: 400;
  datas: { error: string; fields?: Record<string, string> };
}
export interface OverdueEnvelope {
  code: 998;
  datas: { error: { message: string; data: { key: string } } };
}
export interface ExpiredEnvelope {
  code: 999;
  datas: { error: string };
}
export type Envelope<T> = OkEnvelope<T> | BadRequestEnvelope | OverdueEnvelope | ExpiredEnvelope;
export type AnyCode = Code;

export interface ListResult<T> {
  list: T[];
  total: number;
  /** true when total stopped at COUNT_CAP: there are at least that many rows. */
  capped?: boolean;
}
