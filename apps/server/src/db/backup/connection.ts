import path from 'node:path';
import pg from 'pg';
import { embeddedClusterDir, launchEmbeddedIn, runningEmbedded } from '../embedded';
import { BackupError } from './format';

/** Connections to the database a backup is read from or restored into: DATABASE_URL's server, or DATA_DIR's embedded cluster. */

/** A connection of its own to a database, closed (and a cluster started for it stopped) by close(). */
export interface Connection {
  client: pg.Client;
  /** What it is connected to, for the operator. */
  what: string;
  close(): Promise<void>;
}

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * The database to back up: DATABASE_URL's server; else DATA_DIR's embedded cluster, the running one (the
 * server's, reached on its socket: a connection like any other, nothing disturbed) or, when none runs, one
 * started here for the backup and stopped after.
 */
export async function connectSource(opts: { databaseUrl?: string; dataDir: string }): Promise<Connection> {
  if (opts.databaseUrl) {
    const client = await connect(opts.databaseUrl);
    return { client, what: 'the PostgreSQL server of DATABASE_URL', close: () => client.end() };
  }
  if (!embeddedClusterDir(opts.dataDir)) throw new BackupError(`${opts.dataDir} holds no database (no ${path.join(opts.dataDir, 'postgres')}): set DATA_DIR to the server's data folder`);
  const running = runningEmbedded(opts.dataDir);
  if (running) {
    try {
      const client = await connect(running.url);
      return { client, what: `the running embedded database of ${opts.dataDir} (pid ${running.pid})`, close: () => client.end() };
    } catch {
      // A postmaster that is stopping or starting: started again below, which waits for it.
    }
  }
  const cluster = await (await launchEmbeddedIn(opts.dataDir)).ready;
  const client = await connect(cluster.url);
  return {
    client,
    what: `the embedded database of ${opts.dataDir} (started for the backup)`,
    close: async () => {
      await client.end();
      await cluster.stop();
    },
  };
}
