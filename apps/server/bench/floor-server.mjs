// The device list's floor (docs/benchmarks.md, part 3 and the current figures): the admin's first page of
// GET /adminapi/equipment/list?page=1&limit=20 answered with nothing but Fastify, node-postgres and
// @fastify/compress, run by plain Node like the built server. No session, grant or parameter check, no
// security headers, metrics, logger, busy queue, input validation or count query (the total is read once).
// What a server that reads this page from the database at every call can reach on the box, in two ways:
// - GET /list: the same statement as the server's (as PostgreSQL logs it), its rows as node-postgres gives
//   them, the same envelope and the same compression (@fastify/compress, set as app.ts sets it);
// - GET /list/least: the least work Node can do for the page: PostgreSQL writes the rows' JSON (json_agg),
//   Node puts that text in the envelope without parsing or serializing a row, and sends it uncompressed.
// The bench checks that both answer the server's page (the same JSON once parsed) before it measures them.
// DATABASE_URL: a database the server has seeded; PORT (default 3000), HOST (default 127.0.0.1).
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import pg from 'pg';

pg.types.setTypeParser(20, (v) => Number(v));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
/** The "expiring" window of the demo data's parameters (system parameter expiring_days). */
const expiringDays = Number((await pool.query(`select value from system_params where key = 'expiring_days'`)).rows[0]?.value ?? 30);
const total = Number((await pool.query('select count(*) from devices')).rows[0].count);

// The page's columns under the answer's names, written once for both statements; `time` marks a timestamp.
const fields = [
  ['id', '"devices"."id"'],
  ['serial', '"devices"."serial"'],
  ['model', '"devices"."model"'],
  ['name', '"devices"."name"'],
  ['status', '"devices"."status"'],
  ['institution_id', '"devices"."institution_id"'],
  ['institution_name', '"institutions"."name"'],
  ['activated_at', '"devices"."activated_at"', 'time'],
  ['expires_at', '"devices"."expires_at"', 'time'],
  ['remaining_uses', '"devices"."remaining_uses"'],
  ['total_inspections', '"devices"."total_inspections"'],
  ['last_seen_at', '"devices"."last_seen_at"', 'time'],
  ['created_at', '"devices"."created_at"', 'time'],
  ['remark', '"devices"."remark"'],
  ['expiring', 'coalesce("devices"."expires_at" >= $1 and "devices"."expires_at" <= $2, false)'],
];
const page = `from "devices" left join "institutions" on "institutions"."id" = "devices"."institution_id"
  order by "devices"."created_at" desc, "devices"."id" desc limit 20`;
const select = (write) => fields.map(([name, expr, time]) => `${time ? write(expr) : expr} as "${name}"`).join(', ');
// The server's statement: timestamps come back as Dates, which JSON writes as the ISO text the server sends.
const rowsText = `select ${select((c) => c)} ${page}`;
// json_agg of the rows keeps their order; PostgreSQL writes the timestamps as the server does.
const jsonText = `select coalesce(json_agg(r), '[]')::text from (select ${select((c) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)} ${page}) r`;

const clock = () => {
  const now = new Date();
  return [now.toISOString(), new Date(now.getTime() + expiringDays * 86_400_000).toISOString()];
};

const app = Fastify({ logger: false });
// As src/app.ts sets @fastify/compress: a change there comes here too.
await app.register(compress, {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  globalDecompression: false,
  syncThreshold: 64 * 1024,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
});
app.get('/list', async () => {
  const { rows } = await pool.query({ name: 'floor_rows', text: rowsText, values: clock() });
  return { code: 200, datas: { list: rows, total, capped: false } };
});
app.get('/list/least', { compress: false }, async (_req, reply) => {
  const { rows } = await pool.query({ name: 'floor_json', text: jsonText, values: clock(), rowMode: 'array' });
  reply.type('application/json; charset=utf-8');
  return `{"code":200,"datas":{"list":${rows[0][0]},"total":${total},"capped":false}}`;
});
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
