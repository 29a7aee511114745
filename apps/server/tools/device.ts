/**
 * The device simulator: `npm run device -- <command> [options]` calls the device API (`/deviceapi/v1`)
 * as a device in the field does. Commands: status, packages, pay --package <id>, inspect [--profile],
 * soak --devices N --minutes M. Defaults: the demo device (BE-DEMO-0001) on http://localhost:8080.
 *
 * `soak` creates its devices through the admin API (an admin account adds them and distributes them to
 * the demo device's institution, generates one 30-day device code each, and that institution's account
 * redeems them), then every device pays and inspects at once, each at most ~50 calls a minute (under the
 * server's per-device limit of 60), until the time is up; it prints throughput, latency p50/p95 and errors.
 */
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';

const MERIDIANS = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST'] as const;
type Profile = 'healthy' | 'excess-lu' | 'random';

interface Options {
  url: string;
  serial: string;
  secret: string;
  /** Sent as X-Device-Version on every call (trust-api.md, "Device version and presence"). */
  firmware?: string;
}
/** The simulator's firmware version, unless --firmware says otherwise. */
const SIMULATOR_VERSION = 'simulator 1.0.0';
// biome-ignore lint/suspicious/noExplicitAny: a simulator reads loosely shaped answers; each command prints or checks what it needs
type Loose = any;
interface Envelope<T = Loose> {
  status: number;
  code: number;
  msg?: string;
  datas: T;
}

async function request<T = Loose>(url: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<Envelope<T>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: { code?: number; msg?: string; datas?: T } = {};
  try {
    json = JSON.parse(text);
  } catch {
    json = { code: res.status, datas: text as unknown as T };
  }
  return { status: res.status, code: json.code ?? res.status, msg: json.msg, datas: json.datas as T };
}

const deviceCall = <T = Loose>(o: Options, method: 'GET' | 'POST', path: string, body?: unknown) =>
  request<T>(o.url, method, `/deviceapi/v1${path}`, { authorization: `Bearer ${o.serial}.${o.secret}`, 'x-device-version': o.firmware ?? SIMULATOR_VERSION }, body);

function readings(profile: Profile): Record<string, [number, number]> {
  const rnd = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
  return Object.fromEntries(
    MERIDIANS.map((m) => {
      if (profile === 'random') return [m, [rnd(0, 200), rnd(0, 200)]];
      if (profile === 'excess-lu' && m === 'LU') return [m, [rnd(150, 170), rnd(150, 170)]];
      return [m, [rnd(95, 105), rnd(95, 105)]];
    }),
  );
}

const inspectionBody = (profile: Profile) => ({
  inspection_no: `SIM-${randomUUID()}`,
  measured_at: new Date().toISOString(),
  user: { name: 'Simulated User', gender: 'female', birth_date: '1985-03-12', phone: '13800138000' },
  vitals: { pulse: 60 + Math.floor(Math.random() * 30) },
  readings: readings(profile),
});

async function firstPackage(o: Options) {
  const res = await deviceCall<{ list: { id: number; price_cents: number; kind: string }[] }>(o, 'GET', '/packages');
  if (res.code !== 200) throw new Error(`packages: ${JSON.stringify(res.datas)}`);
  const pkg = res.datas.list.find((p) => p.kind === 'count') ?? res.datas.list[0];
  if (!pkg) throw new Error('no package on sale');
  return pkg;
}

async function pay(o: Options, packageId?: number) {
  const list = await deviceCall<{ list: { id: number; price_cents: number }[] }>(o, 'GET', '/packages');
  const pkg = packageId ? list.datas.list?.find((p) => p.id === packageId) : list.datas.list?.[0];
  if (!pkg) throw new Error(`package ${packageId ?? ''} is not on sale`);
  return deviceCall(o, 'POST', '/payments', {
    order_no: `SIM-${randomUUID()}`,
    package_id: pkg.id,
    amount_cents: pkg.price_cents,
    channel: 'simulator',
    paid_at: new Date().toISOString(),
  });
}

const print = (res: Envelope) => {
  console.log(JSON.stringify({ http: res.status, code: res.code, msg: res.msg, datas: res.datas }, null, 2));
  if (res.code !== 200) process.exitCode = 1;
};

// ---------------------------------------------------------------------------------------------
// soak
// ---------------------------------------------------------------------------------------------

interface SoakOptions extends Options {
  devices: string;
  minutes: string;
  adminUser: string;
  adminPassword: string;
  institutionUser: string;
  institutionPassword: string;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

async function adminCall<T = Loose>(o: Options, key: string, method: 'GET' | 'POST', path: string, body: Record<string, unknown> = {}): Promise<Envelope<T>> {
  if (method === 'GET') return request<T>(o.url, 'GET', `/adminapi${path}?${new URLSearchParams({ ...body, key } as Record<string, string>)}`, {});
  return request<T>(o.url, 'POST', `/adminapi${path}`, {}, { ...body, key });
}
const must = <T>(res: Envelope<T>, what: string): T => {
  if (res.code !== 200) throw new Error(`${what}: ${JSON.stringify(res.datas)}`);
  return res.datas;
};

async function soak(o: SoakOptions) {
  const count = Number(o.devices);
  const minutes = Number(o.minutes);
  if (!(count >= 1 && count <= 5000) || !(minutes > 0)) throw new Error('--devices 1-5000 and --minutes > 0');
  console.log(`soak: preparing ${count} devices through the admin API at ${o.url}`);
  const admin = must(await request(o.url, 'POST', '/adminapi/login/login', {}, { username: o.adminUser, password: o.adminPassword }), 'admin sign-in').key as string;
  const owner = must(await deviceCall(o, 'GET', '/status'), 'demo device status').institution as { id: number; name: string } | null;
  if (!owner) throw new Error('the --serial device has no institution to put the soak devices under');
  const run = Date.now().toString(36).toUpperCase();
  const devices: { id: number; serial: string; secret: string }[] = [];
  await pool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const serial = `SOAK-${run}-${String(i).padStart(4, '0')}`;
      const added = must(await adminCall(o, admin, 'POST', '/equipment/add', { serial, model: 'SIM', name: `Soak ${i}`, remark: 'device simulator soak' }), 'add');
      devices.push({ id: added.id, serial, secret: added.secret });
    },
  );
  for (let i = 0; i < devices.length; i += 500) {
    must(await adminCall(o, admin, 'POST', '/distribution/distribute', { ids: devices.slice(i, i + 500).map((d) => d.id), from: null, to: owner.id, remark: `soak ${run}` }), 'distribute');
  }
  const codes: string[] = [];
  for (let i = 0; i < count; i += 10_000)
    codes.push(...must(await adminCall(o, admin, 'POST', '/activation_code/generate', { scope: 'device', days: 30, count: Math.min(10_000, count - i), remark: `soak ${run}` }), 'codes').codes);
  const inst = must(await request(o.url, 'POST', '/adminapi/login/institution_login', {}, { username: o.institutionUser, password: o.institutionPassword }), 'institution sign-in').key as string;
  // One at a time: redemptions are throttled per institution (attempts in flight count until they succeed).
  await pool(devices, 1, async (d, i) => {
    must(await adminCall(o, inst, 'POST', '/base_index/use_activation_code_device', { id: d.id, code: codes[i]! }), `activate ${d.serial}`);
  });
  console.log(`soak: ${count} devices active under ${owner.name}; running ${minutes} min`);

  const latencies: number[] = [];
  const errors = new Map<string, number>();
  let calls = 0;
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const pkg = await firstPackage(o);
  const timed = async (fn: () => Promise<Envelope>) => {
    const t0 = performance.now();
    let res: Envelope;
    try {
      res = await fn();
    } catch (error) {
      const key = `network: ${(error as Error).message}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
      return;
    }
    latencies.push(performance.now() - t0);
    calls++;
    if (res.code !== 200) {
      const reason = typeof res.datas?.error === 'object' ? res.datas.error.reason : res.datas?.error;
      const key = `${res.status}/${res.code} ${reason ?? ''}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
  };
  const report = setInterval(() => console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${calls} calls, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors`), 10_000);
  await Promise.all(
    devices.map(async (d, i) => {
      const as: Options = { url: o.url, serial: d.serial, secret: d.secret, firmware: o.firmware };
      await sleep((i * 1200) / devices.length); // spread the start over one pacing interval
      let n = 0;
      while (Date.now() < deadline) {
        const t0 = Date.now();
        // Mostly inspections; every 10th call a payment (which also keeps the uses up).
        if (n++ % 10 === 0) {
          await timed(() =>
            deviceCall(as, 'POST', '/payments', { order_no: `SOAK-${randomUUID()}`, package_id: pkg.id, amount_cents: pkg.price_cents, channel: 'simulator', paid_at: new Date().toISOString() }),
          );
        } else await timed(() => deviceCall(as, 'POST', '/inspections', inspectionBody('random')));
        await sleep(Math.max(0, 1200 - (Date.now() - t0)));
      }
    }),
  );
  clearInterval(report);
  const seconds = (Date.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`soak done: ${count} devices, ${seconds.toFixed(0)} s`);
  console.log(`  calls       ${calls} (${(calls / seconds).toFixed(1)} /s)`);
  console.log(`  latency     p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`);
  console.log(`  errors      ${errorCount}${errorCount ? '' : ' (none)'}`);
  for (const [key, n] of errors) console.log(`    ${n} x ${key}`);
  if (errorCount) process.exitCode = 1;
}

// ---------------------------------------------------------------------------------------------

const program = new Command('device')
  .description('Device simulator: calls the device API as a device in the field does')
  .option('--url <url>', 'server address', 'http://localhost:8080')
  .option('--serial <serial>', 'device serial', 'BE-DEMO-0001')
  .option('--secret <secret>', 'device secret', 'demo-device-secret-0001')
  .option('--firmware <version>', 'firmware version sent as X-Device-Version', SIMULATOR_VERSION);
const opts = () => program.opts<Options>();

program
  .command('status')
  .description('GET /deviceapi/v1/status')
  .action(async () => print(await deviceCall(opts(), 'GET', '/status')));
program
  .command('packages')
  .description('GET /deviceapi/v1/packages')
  .action(async () => print(await deviceCall(opts(), 'GET', '/packages')));
program
  .command('pay')
  .description('POST /deviceapi/v1/payments: pays a package at its price (a fresh order number)')
  .option('--package <id>', 'package id (default: the first on sale)')
  .action(async (o: { package?: string }) => print(await pay(opts(), o.package ? Number(o.package) : undefined)));
program
  .command('inspect')
  .description('POST /deviceapi/v1/inspections: one inspection with generated readings')
  .option('--profile <profile>', 'healthy | excess-lu | random', 'healthy')
  .action(async (o: { profile: Profile }) => {
    if (!['healthy', 'excess-lu', 'random'].includes(o.profile)) throw new Error('--profile healthy | excess-lu | random');
    print(await deviceCall(opts(), 'POST', '/inspections', inspectionBody(o.profile)));
  });
program
  .command('soak')
  .description('many simulated devices paying and inspecting at once (devices created through the admin API)')
  .option('--devices <n>', 'simulated devices', '100')
  .option('--minutes <m>', 'duration in minutes', '5')
  .option('--admin-user <name>', 'admin account that adds the devices and codes', 'admin')
  .option('--admin-password <password>', 'its password', 'demo1234')
  .option('--institution-user <name>', "the --serial device's institution account, which activates them", 'clinic3')
  .option('--institution-password <password>', 'its password', 'demo1234')
  .action(async (o: Omit<SoakOptions, keyof Options>) => soak({ ...opts(), ...o }));

program.parseAsync().catch((error: Error) => {
  console.error(`device: ${error.message}`);
  process.exit(1);
});
