import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds the server once per run (esbuild, well under a second): every file's server runs dist/main.js. */
export default function setup() {
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.resolve(import.meta.dirname, '../apps/server'), stdio: ['ignore', 'ignore', 'inherit'] });
}
