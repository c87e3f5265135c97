/**
 * The durable echo's log (`bench:load --durable-baseline`): one row per `act`, committed before the echo answers.
 *
 * It writes the way the real server's table store does (src/games/table.store.ts), without Nest, TypeORM or a
 * game: the rows appended in one turn of the event loop go out at the end of that turn as ONE prepared statement
 * (`unnest` of arrays) in its own transaction, up to three statements in flight on their own connections (one on
 * the embedded database, which is one session). Each row carries a JSON payload of the size of a table event.
 *
 * `ECHO_DB=postgres`: ECHO_DATABASE_URL, table in the schema ECHO_SCHEMA (created and dropped by the harness).
 * `ECHO_DB=pglite`: the server's own embedded database (PGlite in a worker thread behind its socket server,
 * src/database/embedded-postgres.ts) in ECHO_DATA_DIR. Unset: no log (the bare echo).
 */
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

interface QueryConfig {
  name: string;
  text: string;
  values: unknown[];
}
interface Pool {
  query(q: string | QueryConfig): Promise<unknown>;
  end(): Promise<void>;
}

export interface DurableLog {
  /** Resolves once the row is committed. */
  append(room: string, n: number): Promise<void>;
  /** Rows committed so far. */
  readonly committed: number;
  close(): Promise<void>;
}

/** The statements in flight at most (the table store's MAX_COMMITS_IN_FLIGHT). */
const MAX_IN_FLIGHT = 3;

/** About what one table event row carries (its engine actions and delta). */
const PAYLOAD = JSON.stringify({
  actions: [{ type: 'play', seat: 1, card: { suit: 'H', rank: 12 }, by: 'human', at: 1764000000000 }],
  delta: { turn: 2, trick: [{ seat: 1, card: { suit: 'H', rank: 12 } }], hands: { 1: 11 }, version: 42 },
});

interface Pending {
  room: string;
  n: number;
  done: () => void;
  fail: (e: Error) => void;
}

export async function openDurableLog(env: NodeJS.ProcessEnv): Promise<DurableLog | null> {
  const kind = env.ECHO_DB;
  if (!kind) return null;
  // pg is a backend dependency without bundled types: the calls used here
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Pool: PgPool } = require('pg') as { Pool: new (o: { connectionString: string; max: number }) => Pool };
  let url: string;
  let table: string;
  let stopDb = async () => undefined as void;
  if (kind === 'postgres') {
    if (!env.ECHO_DATABASE_URL || !env.ECHO_SCHEMA || !/^\w+$/.test(env.ECHO_SCHEMA))
      throw new Error('ECHO_DB=postgres needs ECHO_DATABASE_URL and ECHO_SCHEMA');
    url = env.ECHO_DATABASE_URL;
    table = `"${env.ECHO_SCHEMA}".echo_events`;
  } else if (kind === 'pglite') {
    if (!env.ECHO_DATA_DIR) throw new Error('ECHO_DB=pglite needs ECHO_DATA_DIR');
    const db = await startEmbeddedPostgres(env.ECHO_DATA_DIR);
    url = db.url;
    table = 'echo_events';
    stopDb = () => db.stop();
  } else {
    throw new Error(`ECHO_DB must be postgres or pglite, not ${kind}`);
  }
  const inFlightMax = kind === 'pglite' ? 1 : MAX_IN_FLIGHT;
  const pool = new PgPool({ connectionString: url, max: inFlightMax });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table} (id bigserial PRIMARY KEY, room text NOT NULL, n int NOT NULL, payload jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  );
  const insert = {
    name: 'echo_group_commit',
    text: `INSERT INTO ${table} (room, n, payload) SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[])`,
  };

  let pending: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;
  let committed = 0;
  const kick = () => {
    while (pending.length && inFlight < inFlightMax) {
      const batch = pending;
      pending = [];
      inFlight++;
      pool
        .query({ ...insert, values: [batch.map((p) => p.room), batch.map((p) => p.n), batch.map(() => PAYLOAD)] })
        .then(
          () => {
            committed += batch.length;
            for (const p of batch) p.done();
          },
          (e: Error) => {
            for (const p of batch) p.fail(e);
          },
        )
        .finally(() => {
          inFlight--;
          kick();
        });
    }
  };
  return {
    append(room, n) {
      return new Promise<void>((done, fail) => {
        pending.push({ room, n, done, fail });
        if (scheduled) return;
        scheduled = true;
        // at the end of this turn: the rows of every message read in it share one statement
        setImmediate(() => {
          scheduled = false;
          kick();
        });
      });
    },
    get committed() {
      return committed;
    },
    async close() {
      await pool.end();
      await stopDb();
    },
  };
}
