import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { bootServer, newDataDir, stopChild } from './harness';

/**
 * Builds the server once per run (esbuild, well under a second): every file's server runs dist/main.js.
 * Then starts it once on an empty folder, as `npm start` on a fresh machine does (initdb, migrations, demo
 * data), and stops it: each file's server starts on a copy of that folder (harness.ts, startServer).
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.resolve(import.meta.dirname, '../apps/server'), stdio: ['ignore', 'ignore', 'inherit'] });
  const template = newDataDir('e2e-template-');
  const { child } = await bootServer(template);
  await stopChild(child);
  project.provide('e2eDataTemplate', template);
  return () => fs.rmSync(template, { recursive: true, force: true });
}
