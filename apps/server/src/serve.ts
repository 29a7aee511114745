import type { Config } from './config';
import { openDatabase } from './db/client';
import type { EmbeddedCluster } from './db/embedded';
import { buildApp } from './app';
import { closeGracefully } from './http/drain';
import { startMetricsServer } from './http/metrics';
import { seedDemoIfEmpty, syncMenus } from './seed';
import { moveUploadFolderIn } from './modules/uploads';
import { HOUSEKEEPING_INTERVAL_MS, housekeeping as runHousekeeping } from './lib/housekeeping';
import { dailyBackup } from './lib/backups';
import { codeKeyFingerprint } from './modules/codes/key';
import { CHECK_INTERVAL_MS, scheduledCheck } from './modules/notices';

/**
 * The server process after its entry (main.ts): the database (the embedded cluster main.ts started, or
 * DATABASE_URL's), migrations, menus, demo data on an empty database, the app, the files of an earlier
 * `DATA_DIR/uploads` moved into the database (once; before listening, so every stored URL answers from the
 * first request), housekeeping, the drain on SIGTERM/SIGINT, then listening.
 */
export async function serve(config: Config, cluster?: Promise<EmbeddedCluster>): Promise<void> {
  const database = await openDatabase(config, cluster);
  // Under the start-up lock: processes started together on one empty database migrate, sync the menus and
  // seed one after another, so each step runs once (db/client.ts, startup.test.ts).
  await database.migrate(async (db) => {
    await syncMenus(db);
    if (config.seedDemo) await seedDemoIfEmpty(db);
  });

  const app = await buildApp(config, database.db);
  await moveUploadFolderIn(database.db, config.dataDir, app.log);
  // The daily backup (lib/backups.ts) rides on the housekeeping's turns; one at a time in this process.
  let backingUp = false;
  const backup = async () => {
    if (backingUp) return;
    backingUp = true;
    try {
      const done = await dailyBackup(database, { dataDir: config.dataDir, codeKey: codeKeyFingerprint({ dataDir: config.dataDir }) });
      if (done.written) app.log.info({ file: done.written, removed: done.removed }, 'daily backup written');
    } catch (err) {
      app.log.error({ err }, 'daily backup failed');
    } finally {
      backingUp = false;
    }
  };
  const housekeeping = setInterval(() => {
    runHousekeeping(database.db).catch((err: unknown) => app.log.error({ err }, 'housekeeping'));
    void backup();
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  // The time-based notices (modules/notices/check.ts): once across all processes, under an advisory lock.
  let checking = false;
  const noticeCheck = async () => {
    if (checking) return;
    checking = true;
    try {
      await scheduledCheck(database);
    } catch (err) {
      app.log.error({ err }, 'notice check failed');
    } finally {
      checking = false;
    }
  };
  const noticeTimer = setInterval(() => void noticeCheck(), CHECK_INTERVAL_MS);
  noticeTimer.unref();
  void noticeCheck();

  /**
   * SIGTERM/SIGINT drain: stop accepting, let requests in flight finish (SHUTDOWN_TIMEOUT_MS at most, then
   * their connections are cut), close the database, exit 0 (1 when requests had to be cut or closing
   * failed). A second signal does not start a second shutdown; a hard deadline ends a close that hangs.
   */
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(housekeeping);
    clearInterval(noticeTimer);
    app.log.info(`${signal}: draining`);
    setTimeout(() => {
      process.stderr.write('shutdown: still not closed after the drain deadline; exiting\n');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    let code = 0;
    try {
      const { cut } = await closeGracefully(app, config.shutdownTimeoutMs);
      if (cut) {
        app.log.warn(`shutdown: requests still in flight after ${config.shutdownTimeoutMs} ms; their connections were cut`);
        code = 1;
      }
    } catch (err) {
      app.log.error({ err }, 'shutdown: closing the server failed');
      code = 1;
    }
    try {
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown: closing the database failed');
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.metricsPort !== undefined) {
    const metrics = await startMetricsServer(app, { port: config.metricsPort, host: config.metricsHost });
    app.log.info(`metrics: http://${config.metricsHost}:${metrics.port}/metrics`);
  }
  app.log.info(`database: ${database.kind === 'embedded' ? `embedded PostgreSQL in ${config.dataDir}/postgres` : 'PostgreSQL of DATABASE_URL'}`);
}
