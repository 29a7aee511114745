import { describe, expect, it } from 'vitest';
import { secretsCsv } from './secrets';

describe('the device secrets CSV', () => {
  it('writes a BOM, a title row and one CRLF line per device', () => {
    expect(secretsCsv([{ serial: 'BE-1', secret: 'abc_DEF' }] as never)).toBe('\uFEFFserial,secret\r\nBE-1,abc_DEF\r\n');
  });

  it('neutralises a cell a spreadsheet would take for a formula, as every export does', () => {
    // A base64url secret may start with "-"; a serial may too.
    const csv = secretsCsv([
      { serial: '-SERIAL', secret: '-2+3' },
      { serial: 'BE-2', secret: '=HYPERLINK("http://x")' },
    ] as never);
    expect(csv.split('\r\n').slice(1, 3)).toEqual(["'-SERIAL,'-2+3", 'BE-2,"\'=HYPERLINK(""http://x"")"']);
  });
});
