import { describe, expect, it } from 'vitest';
import { httpStatusMessage } from './status';
import en from '../../locales/en';

describe('httpStatusMessage', () => {
  it('maps every status of the spec catalogue', () => {
    const expected: Record<number, string> = {
      400: 'Bad request',
      401: 'Unauthorized, please log in again',
      403: 'Access denied',
      404: 'Resource not found',
      405: 'Method not allowed',
      408: 'Request timeout',
      500: 'Server error',
      501: 'Not implemented',
      502: 'Network error',
      503: 'Service unavailable',
      504: 'Network timeout',
      505: 'HTTP version not supported',
    };
    for (const [status, text] of Object.entries(expected)) {
      const m = httpStatusMessage(Number(status));
      expect(m.key).toBe(`http.s${status}`);
      const [, leaf] = m.key.split('.');
      expect((en.http as Record<string, string>)[leaf!]).toBe(text);
    }
  });
  it('falls back to unknown error with the status', () => {
    expect(httpStatusMessage(418)).toEqual({ key: 'http.unknown', params: { status: 418 } });
    expect(httpStatusMessage(302)).toEqual({ key: 'http.unknown', params: { status: 302 } });
  });
  it('treats no response as server busy', () => {
    expect(httpStatusMessage(null).key).toBe('http.noResponse');
    expect(httpStatusMessage(undefined).key).toBe('http.noResponse');
    expect(httpStatusMessage(0).key).toBe('http.noResponse');
  });
});
