import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DownloadProgress, downloadFile, filenameOf } from './download';

/** A streamed answer in chunks, as the server sends an export. */
function streamed(chunks: string[], headers: Record<string, string>, opts: { stall?: boolean } = {}) {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      if (!opts.stall) controller.close();
    },
  });
  return new Response(body, { status: 200, headers });
}

const saved: string[] = [];
function stubDom() {
  vi.stubGlobal('document', {
    createElement: () => {
      const link = { href: '', download: '', click: () => saved.push(link.download), remove: () => undefined };
      return link;
    },
    body: { append: () => undefined },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  saved.length = 0;
});

describe('downloadFile (streamed exports)', () => {
  it('reports bytes, CSV rows across chunk edges and the announced total, then saves under the server name', async () => {
    stubDom();
    const csv = ['\uFEFFSerial,Name\r\nA1,', 'One\r\nA2,Two\r', '\nA3,Three\r\n'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed(csv, { 'content-type': 'text/csv; charset=utf-8', 'x-total-count': '3', 'content-disposition': 'attachment; filename="devices-2026-11-24.csv"' })),
    );
    const seen: DownloadProgress[] = [];
    const name = await downloadFile('equipment.exportList', { format: 'csv' } as never, 'devices.csv', { countRows: true, onProgress: (p) => seen.push(p) });
    expect(name).toBe('devices-2026-11-24.csv');
    expect(saved).toEqual(['devices-2026-11-24.csv']);
    const last = seen.at(-1)!;
    expect(last.rows).toBe(3);
    expect(last.total).toBe(3);
    expect(last.bytes).toBe(new TextEncoder().encode(csv.join('')).length);
    expect(seen.map((p) => p.rows)).toEqual([0, 0, 1, 3]);
  });

  it('a cancelled download saves nothing and resolves null', async () => {
    stubDom();
    const controller = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const res = streamed(['\uFEFFa\r\n'], { 'content-type': 'text/csv' }, { stall: true });
        init.signal?.addEventListener('abort', () => void res.body?.cancel());
        return res;
      }),
    );
    const pending = downloadFile('equipment.exportList', { format: 'csv' } as never, 'devices.csv', { signal: controller.signal, onProgress: () => controller.abort() });
    expect(await pending).toBeNull();
    expect(saved).toEqual([]);
  });

  it('reads the file name of a Content-Disposition header (filename* first)', () => {
    expect(filenameOf('attachment; filename="x.csv"; filename*=UTF-8\'\'%E8%AE%BE%E5%A4%87.csv', 'f')).toBe('设备.csv');
    expect(filenameOf(null, 'fallback.csv')).toBe('fallback.csv');
  });
});
