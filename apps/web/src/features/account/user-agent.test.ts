import { describe, expect, it } from 'vitest';
import { deviceOf } from './user-agent';

describe('deviceOf', () => {
  it('names the browser with its major version, the system and the form of the device', () => {
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.8078.73 Safari/537.36')).toEqual({ browser: 'Chrome 156', os: 'Linux', kind: 'desktop' });
    expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1')).toEqual({
      browser: 'Safari 18',
      os: 'iOS 18.1',
      kind: 'mobile',
    });
  });

  it('an empty or unknown User-Agent names nothing', () => {
    expect(deviceOf('')).toEqual({ browser: '', os: '', kind: 'unknown' });
    expect(deviceOf('curl/8.5.0').os).toBe('');
  });
});
