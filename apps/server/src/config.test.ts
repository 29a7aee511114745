import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputOf } from './test/child';
import { ConfigError, ENV, loadConfig, OPERATOR_VARIABLES } from './config';

/*
 * The configuration's one schema (config.ts): defaults, every refusal naming its variable, the switches'
 * words, the variables documented in .env.example and the README's "Running" table, and a real process
 * started with a bad value.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const KEY_HEX = 'ab'.repeat(32);

describe('defaults', () => {
  it('an empty environment gives every default', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve(process.cwd(), 'data'),
      databaseUrl: undefined,
      seedDemo: true,
      webDist: path.resolve(import.meta.dirname, '../../web/dist'),
      logLevel: 'info',
      trustProxy: false,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      shutdownTimeoutMs: 10_000,
      dbQueueLimit: 100,
      sessionCache: undefined,
      slowRequestMs: 2_000,
      codeKey: undefined,
    });
  });

  it('an empty value is an unset one', () => {
    const blank = Object.fromEntries(Object.keys(ENV.shape).map((k) => [k, '']));
    expect(loadConfig(blank)).toEqual(loadConfig({}));
  });

  it('DATABASE_URL turns the demo data off unless SEED_DEMO says otherwise', () => {
    const url = 'postgres://app:secret@db.example:5432/prod';
    expect(loadConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: 'on' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'off' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('DATA_DIR is relative to where the command was typed (npm INIT_CWD), else the current folder', () => {
    expect(loadConfig({ DATA_DIR: 'd', INIT_CWD: '/srv/app' }).dataDir).toBe('/srv/app/d');
    expect(loadConfig({ DATA_DIR: '/var/lib/app' }).dataDir).toBe('/var/lib/app');
  });

  it('reads every value it accepts', () => {
    const config = loadConfig({
      PORT: '80',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'WARN',
      METRICS_PORT: '9100',
      METRICS_HOST: '::',
      SHUTDOWN_TIMEOUT_MS: '0',
      DB_QUEUE_LIMIT: '5',
      SLOW_REQUEST_MS: '0',
      CODE_KEY: ` ${KEY_HEX} `,
      WEB_DIST: '/srv/web',
    });
    expect(config).toMatchObject({
      port: 80,
      host: '127.0.0.1',
      logLevel: 'warn',
      metricsPort: 9100,
      metricsHost: '::',
      shutdownTimeoutMs: 0,
      dbQueueLimit: 5,
      slowRequestMs: 0,
      codeKey: KEY_HEX,
      webDist: '/srv/web',
    });
    expect(loadConfig({ CODE_KEY: Buffer.alloc(32, 7).toString('base64') }).codeKey).toBeDefined();
  });
});

describe('switches', () => {
  const switches = { TRUST_PROXY: 'trustProxy', SEED_DEMO: 'seedDemo', SESSION_CACHE: 'sessionCache' } as const;
  it.each(Object.entries(switches))('%s takes on/off, true/false, 1/0 in any case', (name, field) => {
    for (const v of ['on', 'ON', 'true', 'True', '1', ' on ']) expect(loadConfig({ [name]: v })[field], v).toBe(true);
    for (const v of ['off', 'OFF', 'false', 'FALSE', '0']) expect(loadConfig({ [name]: v })[field], v).toBe(false);
  });
  it.each(Object.keys(switches).flatMap((name) => ['yes', 'no', 'enabled', '2', 'y'].map((v) => [name, v])))('%s=%s is refused', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`configuration: ${name}="${value}" is not allowed: on or off (also true/false, 1/0)`);
  });
});

describe('refusals name the variable, its value and what is allowed', () => {
  const bad: [string, string, string][] = [
    ['PORT', '80a', 'a whole number from 0 to 65535'],
    ['PORT', '70000', 'a whole number from 0 to 65535'],
    ['PORT', '-1', 'a whole number from 0 to 65535'],
    ['PORT', '8080.5', 'a whole number from 0 to 65535'],
    ['METRICS_PORT', 'x', 'a whole number from 0 to 65535'],
    ['SHUTDOWN_TIMEOUT_MS', '10s', 'a whole number from 0 to 600000'],
    ['DB_QUEUE_LIMIT', '1e3', 'a whole number from 0 to 100000'],
    ['SLOW_REQUEST_MS', '3600001', 'a whole number from 0 to 3600000'],
    ['LOG_LEVEL', 'verbose', 'fatal, error, warn, info, debug, trace, silent'],
    ['LOG_LEVEL', 'warning', 'fatal, error, warn, info, debug, trace, silent'],
    ['HOST', 'http://localhost', 'a host name or an IP address'],
    ['METRICS_HOST', 'a b', 'a host name or an IP address'],
    ['TRUST_PROXY', 'maybe', 'on or off'],
  ];
  it.each(bad)('%s=%s', (name, value, allowed) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`${name}=${JSON.stringify(value)} is not allowed: ${allowed}`);
  });

  it('secrets are named, their values never printed', () => {
    for (const [name, value] of [
      ['DATABASE_URL', 'mysql://app:s3cret-pw@db/prod'],
      ['DATABASE_URL', 's3cret-pw'],
      ['CODE_KEY', 's3cret-pw'],
      ['CODE_KEY', 'ab'.repeat(31)],
    ] as const) {
      expect(() => loadConfig({ [name]: value })).toThrow(`${name}=(value not shown) is not allowed`);
      expect(() => loadConfig({ [name]: value })).not.toThrow(/s3cret|abab/);
    }
  });

  it('several bad variables: one line naming each', () => {
    expect(() => loadConfig({ PORT: '80a', TRUST_PROXY: 'yes' })).toThrow(
      /^configuration: PORT="80a" is not allowed: a whole number from 0 to 65535; TRUST_PROXY="yes" is not allowed: on or off \(also true\/false, 1\/0\)$/,
    );
  });
});

describe('documentation', () => {
  it('.env.example and the README "Running" table list exactly the schema\'s variables, in its order', () => {
    const example = fs
      .readFileSync(path.join(root, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const running = readme.slice(readme.indexOf('## Running'), readme.indexOf('\n## ', readme.indexOf('## Running') + 1));
    const table = [...running.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(example).toEqual(OPERATOR_VARIABLES);
    expect(table).toEqual(OPERATOR_VARIABLES);
  });

  it('.env.example holds the defaults: loaded as it is, it gives the configuration of an empty environment', () => {
    const env = Object.fromEntries(
      fs
        .readFileSync(path.join(root, '.env.example'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});

describe('a process started with a bad variable', { timeout: 60_000 }, () => {
  it('exits 1 before anything starts, with one line on stderr naming it and no stack', async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bad-config-')), 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '80a', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, stdout, stderr } = await outputOf(child).done;
    expect(code).toBe(1);
    expect(stderr).toBe('configuration: PORT="80a" is not allowed: a whole number from 0 to 65535\n');
    expect(stdout).toBe('');
    // Nothing started: not even the embedded database's folder.
    expect(fs.existsSync(dataDir)).toBe(false);
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });
});
