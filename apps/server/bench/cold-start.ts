/**
 * Part 5, cold start to first answer: time from spawning the server to the first 200 of
 * `GET /adminapi/params/public` (a database read), on an empty data folder (initdb, migrations, menus,
 * demo data) and again on the folder it left (existing data). The built server (`node dist/main.js`,
 * what `npm start` runs) in `npm run bench`; run alone, the sources through tsx too:
 * `npm run build -w @app/server && npx tsx apps/server/bench/cold-start.ts [runs]`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtServer, serverDir, startServer } from './lib/server';
import { median } from './lib/stats';

export interface ColdStarts {
  empty: number[];
  existing: number[];
}

export async function coldStarts(runs: number, args = builtServer): Promise<ColdStarts> {
  if (!fs.existsSync(path.join(serverDir, 'dist/main.js'))) throw new Error('build the server first: npm run build -w @app/server');
  const out: ColdStarts = { empty: [], existing: [] };
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
    fs.chmodSync(dir, 0o755); // the embedded PostgreSQL's user (when started by root) passes through it
    try {
      for (const into of [out.empty, out.existing]) {
        const server = await startServer({ args, env: { DATA_DIR: dir, DATABASE_URL: '', SEED_DEMO: '1' } });
        into.push(server.startMs);
        await server.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

export const runsText = (xs: number[]) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 3);
  for (const [name, args] of Object.entries({ built: builtServer, tsx: ['--import', 'tsx', 'src/main.ts'] })) {
    const r = await coldStarts(runs, args);
    console.log(`${name.padEnd(5)} empty folder: median ${runsText(r.empty)}; existing data: median ${runsText(r.existing)}`);
  }
}
