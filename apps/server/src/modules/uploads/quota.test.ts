import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { uploads } from '../../db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { solidPng } from '../schematics';

/*
 * The daily upload quota (issue 9 §4): a system parameter, per account and UTC day, refused with a
 * clear message before anything is stored.
 */

let t: TestApp;
let admin: string;
let dataDir: string;

/** One upload of a file as multipart field `file`. */
async function upload(kind: 'img' | 'file', key: string, content: Buffer | string, filename = 'a.png', lang = 'en') {
  const boundary = `----quota${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/adminapi/base/upload_${kind}?key=${key}`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': lang },
  });
  return res.json() as { code: number; datas: any };
}

/** Uploads stored: rows of the `uploads` table (nothing goes to DATA_DIR/uploads). */
const stored = async () => Number((await t.db.select({ n: count() }).from(uploads))[0]!.n);
const setLimit = async (n: number) => expect((await t.call('POST', '/params/save', { key: admin, body: { values: { upload_daily_limit: n } } })).code).toBe(200);

beforeAll(async () => {
  t = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-test-'));
  t.app.config.dataDir = dataDir;
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('daily upload quota', () => {
  it('is a system parameter with labels in four languages', async () => {
    const res = await t.call('GET', '/params/list', { key: admin });
    const param = res.datas.find((p: any) => p.key === 'upload_daily_limit');
    expect(param).toMatchObject({ type: 'integer', value: 200, default: 200, min: 1 });
    for (const lang of ['zh', 'en', 'es', 'ja']) expect(param.label[lang]).toBeTruthy();
  });

  it('refuses the upload past the limit, with a clear message, before the file is stored', async () => {
    await setLimit(3);
    const editor = await t.adminWith('quota-editor', ['AcupointManage']);
    const before = await stored();
    for (let i = 0; i < 3; i++) expect((await upload(i % 2 ? 'file' : 'img', editor, solidPng(4, 4))).code).toBe(200);
    expect(await stored()).toBe(before + 3);
    const refused = await upload('img', editor, solidPng(4, 4));
    expect(refused).toEqual({ code: 400, datas: { error: "Today's upload limit is reached (3 files a day); try again tomorrow (UTC)" } });
    expect((await upload('file', editor, 'a,b', 'a.csv', 'zh-CN')).datas.error).toBe('今日的上传数已达上限（每天 3 个文件），请明天（UTC）再试');
    expect((await upload('img', editor, solidPng(4, 4), 'a.png', 'es')).datas.error).toBe('Se alcanzó el límite de subidas de hoy (3 archivos al día); inténtelo mañana (UTC)');
    expect((await upload('img', editor, solidPng(4, 4), 'a.png', 'ja')).datas.error).toBe('本日のアップロード上限（1日 3 ファイル）に達しました。明日（UTC）もう一度お試しください');
    expect(await stored()).toBe(before + 3);
    // Each account has its own count: the admin still uploads.
    expect((await upload('img', admin, solidPng(4, 4))).code).toBe(200);
    // A raised limit applies at once; the next UTC day starts from zero.
    await setLimit(4);
    expect((await upload('img', editor, solidPng(4, 4))).code).toBe(200);
    expect((await upload('img', editor, solidPng(4, 4))).code).toBe(400);
    await t.db.execute(sql`update upload_counts set day = day - 1`);
    expect((await upload('img', editor, solidPng(4, 4))).code).toBe(200);
  });

  it('a refused upload does not use up the quota', async () => {
    await setLimit(2);
    const editor = await t.adminWith('quota-editor-2', ['SchematicManage']);
    expect((await upload('img', editor, '<html><script>x</script>', 'a.png')).datas.error).toMatch(/not an image|image/i);
    expect((await upload('img', editor, Buffer.alloc(0), 'a.png')).code).toBe(400);
    expect((await upload('img', editor, solidPng(4, 4))).code).toBe(200);
    expect((await upload('img', editor, solidPng(4, 4))).code).toBe(200);
    expect((await upload('img', editor, solidPng(4, 4))).datas.error).toMatch(/upload limit/);
  });

  it('concurrent uploads of one account cannot overshoot the limit', async () => {
    await setLimit(3);
    const editor = await t.adminWith('quota-editor-3', ['AcupointManage']);
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 10 }, () => upload('img', editor, solidPng(4, 4))));
    expect(answers.filter((a) => a.code === 200)).toHaveLength(3);
    expect(answers.filter((a) => /upload limit/.test(a.datas.error ?? ''))).toHaveLength(7);
    expect(await stored()).toBe(before + 3);
  });

  it('nothing of these uploads was written under DATA_DIR', () => {
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
