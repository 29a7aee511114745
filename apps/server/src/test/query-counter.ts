import type { Db } from '../db/client';

/**
 * Counts the statements that reach the database driver (PGlite's client or node-postgres' pool and the
 * clients it lends), with their SQL text. Test-only: it wraps the client drizzle holds.
 */
export function countQueries(db: Db) {
  const seen: string[] = [];
  const wrap = (target: any, method: string) => {
    const original = target[method].bind(target);
    target[method] = (...args: any[]) => {
      const first = args[0];
      seen.push(typeof first === 'string' ? first : String(first?.text ?? first));
      return original(...args);
    };
  };
  const client = (db as any).$client;
  if (typeof client.connect === 'function' && typeof client.totalCount === 'number') {
    // node-postgres pool: every statement runs on a client it lends (its own query() borrows one with a
    // callback, transactions with a promise), so the lent clients are what is counted.
    const wrapped = new WeakSet();
    const watch = (lent: any) => {
      if (lent && !wrapped.has(lent)) {
        wrapped.add(lent);
        wrap(lent, 'query');
      }
      return lent;
    };
    const connect = client.connect.bind(client);
    client.connect = (callback?: (err: unknown, lent: any, done: unknown) => void) =>
      callback ? connect((err: unknown, lent: any, done: unknown) => callback(err, watch(lent), done)) : connect().then(watch);
  } else {
    wrap(client, 'query');
    wrap(client, 'exec');
    const transaction = client.transaction.bind(client);
    client.transaction = (fn: (tx: any) => Promise<unknown>) =>
      transaction((tx: any) => {
        wrap(tx, 'query');
        wrap(tx, 'exec');
        return fn(tx);
      });
  }
  return {
    /** The statements run while `fn` ran. */
    async during(fn: () => Promise<unknown>): Promise<string[]> {
      const from = seen.length;
      await fn();
      return seen.slice(from);
    },
  };
}
