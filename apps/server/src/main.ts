import { loadConfigOrExit } from './config';
import { launchEmbeddedIn } from './db/embedded';

/*
 * The entry `npm start` runs. The embedded database's postgres process is started first; while it gets
 * ready, this process loads the rest of the server (serve.ts and the packages it needs: about half a
 * second on a 2-core box), so that cold start waits for the longer of the two, not their sum. With
 * DATABASE_URL nothing starts here.
 */
const config = loadConfigOrExit();
const cluster = config.databaseUrl ? undefined : (await launchEmbeddedIn(config.dataDir)).ready;
// Awaited in serve(); handled here too, so that a failure while the modules load is reported there, once.
cluster?.catch(() => undefined);
const { serve } = await import('./serve');
await serve(config, cluster);
