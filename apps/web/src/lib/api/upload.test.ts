import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../session';
import { upload } from './client';
import { ApiError } from './errors';

/** A stand-in XMLHttpRequest: records what is sent and answers with `next`. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static next: { status: number; body: string } = { status: 200, body: '{}' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  timeout = 0;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    FakeXhr.last = this;
    this.body = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      if (FakeXhr.next.status === 0) {
        this.onerror?.();
        return;
      }
      this.status = FakeXhr.next.status;
      this.responseText = FakeXhr.next.body;
      this.onload?.();
    });
  }
}

const file = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'point.png', { type: 'image/png' });

describe('upload (multipart through the api client)', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    useSession.setState({ token: 'k1', isAdmin: false, grade: 2, userId: 7 });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.last = null;
  });

  it('sends the key as a bearer header, the other session fields in the query, the file in `file`', async () => {
    FakeXhr.next = { status: 200, body: JSON.stringify({ code: 200, datas: { url: '/uploads/a.png', width: 4 } }) };
    const progress: number[] = [];
    const answer = await upload<{ url: string }>('/base/upload_img', file(), (p) => progress.push(p));
    expect(answer).toEqual({ url: '/uploads/a.png', width: 4 });
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.headers.Authorization).toBe('Bearer k1');
    const url = new URL(xhr.url, 'http://x');
    expect(url.pathname).toBe('/adminapi/base/upload_img');
    expect(Object.fromEntries(url.searchParams)).toEqual({ api_path: '/base/upload_img', institution_id_2: '7' });
    expect((xhr.body!.get('file') as File).name).toBe('point.png');
    expect(progress).toEqual([50, 100]);
  });

  it('maps a 400 envelope to a business ApiError with the server message and fields', async () => {
    FakeXhr.next = { status: 200, body: JSON.stringify({ code: 400, datas: { error: 'Not an image', fields: { file: 'Not an image' } } }) };
    const err = await upload('/base/upload_img', file()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'business', message: 'Not an image', code: 400, fields: { file: 'Not an image' }, notified: true });
  });

  it('maps 999 to an expired ApiError (the client shows its one dialog)', async () => {
    FakeXhr.next = { status: 200, body: JSON.stringify({ code: 999, datas: { error: 'Login expired' } }) };
    const err = await upload('/base/upload_img', file()).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'expired', code: 999 });
  });

  it('maps HTTP and network failures like other calls', async () => {
    FakeXhr.next = { status: 413, body: 'too big' };
    expect(await upload('/base/upload_img', file()).catch((e: unknown) => e)).toMatchObject({ kind: 'http', code: 413 });
    FakeXhr.next = { status: 0, body: '' };
    expect(await upload('/base/upload_img', file()).catch((e: unknown) => e)).toMatchObject({ kind: 'network' });
  });
});
