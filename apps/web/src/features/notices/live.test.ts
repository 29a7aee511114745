import { describe, expect, it } from 'vitest';
import { parseEvents } from './live';

describe('the stream parser', () => {
  it('reads events, ids and comments, keeping an unfinished event for the next chunk', () => {
    const first = parseEvents('retry: 3000\n: connected\n\nid: 7\nevent: notice\ndata: {"id":7}\n\nid: 8\nevent: no');
    expect(first.events).toEqual([{ id: 7, event: 'notice', data: '{"id":7}' }]);
    const second = parseEvents(`${first.rest}tice\ndata: {"id":8}\n\n: keep-alive\n\n`);
    expect(second.events).toEqual([{ id: 8, event: 'notice', data: '{"id":8}' }]);
    expect(second.rest).toBe('');
  });

  it('reads CRLF line ends, multi-line data and a closing event without id', () => {
    const { events } = parseEvents('event: closed\r\ndata: {"reason":\r\ndata: "too_many_streams"}\r\n\r\n');
    expect(events).toEqual([{ id: null, event: 'closed', data: '{"reason":\n"too_many_streams"}' }]);
    expect(JSON.parse(events[0]!.data)).toEqual({ reason: 'too_many_streams' });
  });
});
