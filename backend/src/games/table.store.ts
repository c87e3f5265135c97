/**
 * The table store: the event log, the snapshots and the restore (lean persistence, issue #10).
 *
 * - Every command appends ONE `game_events` row (its engine actions + a small delta, see table.delta.ts);
 *   the full record is written to `games.snapshot` only at boundaries (`needsSnapshot`). `games.seq` is the
 *   seq of the last event the snapshot includes: a restore replays the rows after it.
 * - Group commit: writes of many tables that arrive in one turn of the event loop, or while the commits in flight
 *   run, are stored together in the next one, usually ONE prepared statement (events, snapshots and ended hands
 *   through `unnest`, the epoch check inside): one round trip. Up to MAX_COMMITS_IN_FLIGHT run at once on their own
 *   connections (a table never has two writes in flight: its queue waits for each). A command is answered only once its row is committed.
 * - Writes that must share a transaction with coins (a rated start, settlement) go through `writeIn(m, …)`.
 */
import { Injectable, Logger, Optional } from '@nestjs/common';
import { HandRecord } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { MetricsService } from '../metrics/metrics.service';
import { ActorKind, AppliedAction, TableError, TableRecord } from './table';
import { restoreRecord, TableDelta } from './table.delta';
import { gameFinished, recordFinishedGame } from './history';
import { FencedError } from './table.ownership';

/** One event row (and, at boundaries, the snapshot that includes it). */
export interface TableWrite {
  gameId: string;
  seq: number;
  type: string;
  actor: string | null;
  actorKind: ActorKind;
  actionId: string | null;
  payload: unknown;
  result: unknown;
  actions: AppliedAction[];
  delta: TableDelta | null;
  /** The whole record after this event, when a snapshot is due. */
  snapshot: TableRecord | null;
  /** A hand that ended with this event (seed + commitment, for the provably-fair archive). */
  hand: { gameNumber: number; record: HandRecord } | null;
  /**
   * Several nodes (issue #13): the ownership epoch the writer holds; the write is refused (FencedError) unless it
   * is still the table's. null: one node, no check.
   */
  epoch: number | null;
}

/** A restored table: its record, the last stored seq, events since the snapshot, and recent client action results. */
export interface RestoredTable {
  rec: TableRecord;
  /** The ownership epoch stored with the table (issue #13). */
  epoch: number;
  seq: number;
  eventsSinceSnapshot: number;
  results: { actor: string; actionId: string; type: string; payload: unknown; result: unknown }[];
}

/** A write whose text PostgreSQL cannot store (NUL, lone surrogate): refused alone, before it joins a batch. */
export const UNSTORABLE_WRITE =
  'This action carries text that cannot be stored (a NUL character or a broken surrogate)';

export class UnstorableWriteError extends TableError {
  constructor(readonly gameId: string) {
    super(UNSTORABLE_WRITE);
    this.name = 'UnstorableWriteError';
  }
}

/** A write as its statement's parameters: the JSON columns serialized once, checked storable. */
interface Row {
  write: TableWrite;
  payload: string | null;
  result: string | null;
  actions: string | null;
  delta: string | null;
  snapshot: string | null;
  hand: string | null;
}

/** PostgreSQL's text refuses NUL; its jsonb refuses `\u0000` and a lone surrogate (which JSON.stringify escapes). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** `\u0000` or `\udXXX` (a surrogate escape: JSON.stringify escapes only lone ones) not itself escaped. */
const UNSTORABLE_JSON = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** Serializes a write's JSON columns; UnstorableWriteError when any text of it cannot be stored. */
export function toRow(w: TableWrite): Row {
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const row: Row = {
    write: w,
    payload: json(w.payload),
    result: json(w.result),
    actions: w.actions.length ? JSON.stringify(w.actions) : null,
    delta: json(w.delta),
    snapshot: w.snapshot ? JSON.stringify(w.snapshot) : null,
    hand: w.hand ? JSON.stringify(w.hand.record) : null,
  };
  for (const t of [w.gameId, w.type, w.actor, w.actionId, w.hand?.record.seed, w.hand?.record.commitment])
    if (typeof t === 'string' && UNSTORABLE_TEXT.test(t)) throw new UnstorableWriteError(w.gameId);
  for (const j of [row.payload, row.result, row.actions, row.delta, row.snapshot, row.hand])
    if (j !== null && UNSTORABLE_JSON.test(j)) throw new UnstorableWriteError(w.gameId);
  return row;
}

interface Pending {
  row: Row;
  /** performance.now() when it was queued (spades_db_wait_ms). */
  queued: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Writes per group commit at most (one statement: its parameters are arrays, whatever the count). */
const MAX_BATCH = 400;
/** Group commits at once at most (PostgreSQL groups their WAL flushes). */
const MAX_COMMITS_IN_FLIGHT = 3;

const W = `unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8::text[], $9::jsonb[],
                 $10::jsonb[], $11::bigint[]) AS w(game_id, seq, type, actor, action_id, payload, result, actor_kind, actions, delta, epoch)`;
/** Every table write as one statement; `ok` = the tables whose write still holds them (the epoch it carries). */
const groupCommit = (lock: string) => `
  WITH w AS (SELECT * FROM ${W}),
  ok AS (SELECT g.id FROM games g JOIN w ON g.id = w.game_id AND (w.epoch IS NULL OR g.owner_epoch = w.epoch) ${lock}),
  ev AS (
    INSERT INTO game_events (game_id, seq, type, actor, action_id, payload, result, actor_kind, actions, delta)
    SELECT w.game_id, w.seq, w.type, w.actor, w.action_id, w.payload, w.result, w.actor_kind, w.actions, w.delta
      FROM w WHERE w.game_id IN (SELECT id FROM ok)
    RETURNING game_id),
  snap AS (
    UPDATE games g SET status = s.status, snapshot = s.snapshot, seq = s.seq, updated_at = now(),
           finished_at = CASE WHEN s.finished IS NULL THEN NULL ELSE to_timestamp(s.finished / 1000.0) END
      FROM unnest($12::uuid[], $13::text[], $14::jsonb[], $15::int[], $16::bigint[]) AS s(id, status, snapshot, seq, finished)
     WHERE g.id = s.id AND s.id IN (SELECT id FROM ok)),
  hands AS (
    INSERT INTO game_hands (game_id, game_number, hand_number, seed, commitment, record)
    SELECT h.* FROM unnest($17::uuid[], $18::int[], $19::int[], $20::text[], $21::text[], $22::jsonb[])
                 AS h(game_id, game_number, hand_number, seed, commitment, record)
     WHERE h.game_id IN (SELECT id FROM ok)
    ON CONFLICT DO NOTHING)
  SELECT game_id FROM ev`;
/**
 * Named (prepared once per connection): planning this statement costs the database more than running it for a few
 * rows (~0.6 ms of CPU unnamed against ~0.3 ms named, for one write). TypeORM hands pg's `{ name, text }` to the
 * driver as is. (The embedded database keeps one session across connections: data-source.ts makes each new
 * connection forget what an earlier one prepared.)
 */
const GROUP_COMMIT = { name: 'spades_group_commit', text: groupCommit('') };
const GROUP_COMMIT_FENCED = { name: 'spades_group_commit_fenced', text: groupCommit('FOR SHARE OF g') };
const namedQuery = (q: { name: string; text: string }) => q as unknown as string;

/** Client action results kept per table across a restart (idempotent retries). */
export const RESULTS_KEPT = 500;

@Injectable()
export class TableStore {
  private readonly log = new Logger('TableStore');
  private pending: Pending[] = [];
  /** Group commits running (each on a connection of its own; a table never has two writes in flight). */
  private inFlight = 0;
  private readonly maxInFlight: number;
  private idle: (() => void)[] = [];
  private kickScheduled = false;

  constructor(
    private readonly ds: DataSource,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    // leave connections for the rest of the server (coins, HTTP reads); PGlite has one connection
    const pool = (ds.options as { poolSize?: number }).poolSize ?? 10;
    this.maxInFlight = Math.max(1, Math.min(MAX_COMMITS_IN_FLIGHT, pool - 2));
  }

  /** A new table: its first snapshot and its `create` event, in one transaction. */
  async insertNew(rec: TableRecord, actor: string, payload: unknown, owner: string | null = null): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO games (id, status, seq, snapshot, owner_node, owner_epoch) VALUES ($1, $2, 1, $3, $4, $5)`,
        [rec.id, rec.status, JSON.stringify(rec), owner, owner ? 1 : 0],
      );
      await m.query(
        `INSERT INTO game_events (game_id, seq, type, actor, actor_kind, payload) VALUES ($1, 1, 'create', $2, 'human', $3)`,
        [rec.id, actor, JSON.stringify(payload)],
      );
    });
    this.metrics?.dbEvents.inc();
    this.metrics?.dbSnapshots.inc();
  }

  /**
   * Appends a write to the next group commit; resolves once it is committed. A write that cannot be stored is
   * refused here (UnstorableWriteError), alone: it never joins a batch, so it cannot fail other tables' writes.
   */
  append(write: TableWrite): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const row = toRow(write);
      this.pending.push({ row, queued: performance.now(), resolve, reject });
      this.kickSoon();
    });
  }

  /** Runs `fn` in a transaction of its own (coins moving with a table write). */
  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(fn);
  }

  /** Stores one write inside the caller's transaction (coins moving with it); FencedError when it lost its table. */
  async writeIn(m: EntityManager, write: TableWrite): Promise<void> {
    if ((await this.writeOwned(m, [toRow(write)])).size) throw new FencedError(write.gameId);
  }

  private settle(p: Pending, fenced: Set<string>): void {
    const w = p.row.write;
    if (fenced.has(w.gameId)) return p.reject(new FencedError(w.gameId));
    this.metrics?.dbWait.observe({ kind: w.actorKind }, performance.now() - p.queued);
    p.resolve();
  }

  /** Waits for the writes queued so far (shutdown, tests). */
  drain(): Promise<void> {
    if (!this.inFlight && !this.pending.length) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Starts the commits at the end of this turn of the event loop (check phase), not at the first write: the writes
   * of every command run in this turn (a batch of timers, a batch of socket reads) share one statement. One write per
   * statement cost the database ~10x the CPU per write of a batch of twenty.
   */
  private kickSoon(): void {
    if (this.kickScheduled) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      this.kick();
    });
  }

  /** Starts group commits while writes wait and a connection is free for one. */
  private kick(): void {
    while (this.pending.length && this.inFlight < this.maxInFlight) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.commit(batch).finally(() => {
        this.inFlight--;
        this.kick();
        if (!this.inFlight && !this.pending.length) for (const done of this.idle.splice(0)) done();
      });
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const started = performance.now();
    try {
      const fenced = await this.writeGroup(batch.map((p) => p.row));
      for (const p of batch) this.settle(p, fenced);
    } catch (e) {
      // one bad write must not fail the others: store them one by one
      this.log.warn(`group commit of ${batch.length} failed (${(e as Error).message}); retrying one by one`);
      for (const p of batch) {
        try {
          this.settle(p, await this.writeGroup([p.row]));
        } catch (err) {
          p.reject(err);
        }
      }
    }
    this.metrics?.dbWrite.observe(performance.now() - started);
    this.metrics?.dbBatch.observe(batch.length);
  }

  /**
   * One group commit: ONE statement, its own transaction (one round trip), unless a game ended in the batch — its
   * history rows (issue #12) are more statements, so that batch runs in a transaction.
   */
  private writeGroup(rows: Row[]): Promise<Set<string>> {
    if (rows.some((r) => r.write.snapshot && gameFinished(r.write.snapshot)))
      return this.ds.transaction((m) => this.writeOwned(m, rows));
    return this.writeOwned(this.ds.manager, rows);
  }

  /**
   * Stores the writes that still hold their table, in one statement on `m`: it share-locks the tables whose writes
   * carry an epoch (until `m`'s transaction ends: a take-over waits for the write, or the write sees it), keeps the
   * writes whose epoch is still the table's, appends their events, updates their snapshots and stores their ended
   * hands; then the history rows of a game that ended. Returns the fenced tables (taken over by another node).
   */
  private async writeOwned(m: EntityManager, batch: Row[]): Promise<Set<string>> {
    const writes = batch.map((r) => r.write);
    const snaps = batch.filter((r) => r.snapshot !== null);
    const hands = batch.filter((r) => r.hand !== null);
    const rows: { game_id: string }[] = await m.query(
      namedQuery(writes.some((w) => w.epoch !== null) ? GROUP_COMMIT_FENCED : GROUP_COMMIT),
      [
        writes.map((w) => w.gameId),
        writes.map((w) => w.seq),
        writes.map((w) => w.type),
        writes.map((w) => w.actor),
        writes.map((w) => w.actionId),
        batch.map((r) => r.payload),
        batch.map((r) => r.result),
        writes.map((w) => w.actorKind),
        batch.map((r) => r.actions),
        batch.map((r) => r.delta),
        writes.map((w) => w.epoch),
        snaps.map((r) => r.write.gameId),
        snaps.map((r) => r.write.snapshot!.status),
        snaps.map((r) => r.snapshot),
        snaps.map((r) => r.write.seq),
        snaps.map((r) => r.write.snapshot!.finishedAt),
        hands.map((r) => r.write.gameId),
        hands.map((r) => r.write.hand!.gameNumber),
        hands.map((r) => r.write.hand!.record.handNumber),
        hands.map((r) => r.write.hand!.record.seed),
        hands.map((r) => r.write.hand!.record.commitment),
        hands.map((r) => r.hand),
      ],
    );
    const stored = new Set(rows.map((r) => r.game_id));
    const lost = writes.filter((w) => !stored.has(w.gameId));
    // without an epoch only a missing table leaves a write out: an error, not a take-over
    const missing = lost.find((w) => w.epoch === null);
    if (missing) throw new Error(`table ${missing.gameId} is not stored`);
    const fenced = new Set(lost.map((w) => w.gameId));
    this.metrics?.dbEvents.inc(rows.length);
    for (const { write: w } of snaps) {
      if (fenced.has(w.gameId)) continue;
      this.metrics?.dbSnapshots.inc();
      // a game that just ended (its status changed: always a snapshot) goes to the history (issue #12)
      await recordFinishedGame(m, w.snapshot!);
    }
    return fenced;
  }

  /** A read outside any table's queue (issue #27: a tournament table's outcome from `game_records`). */
  read(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.ds.query(sql, params);
  }

  /** A stored table's record (snapshot + later events), or null when unknown. */
  async load(gameId: string, chatCap: number): Promise<TableRecord | null> {
    const rows: { snapshot: TableRecord; seq: number }[] = await this.ds.query(
      `SELECT snapshot, seq FROM games WHERE id = $1`,
      [gameId],
    );
    if (!rows.length) return null;
    const events: { actions: AppliedAction[] | null; delta: TableDelta | null }[] = await this.ds.query(
      `SELECT actions, delta FROM game_events WHERE game_id = $1 AND seq > $2 ORDER BY seq`,
      [gameId, rows[0].seq],
    );
    return restoreRecord(rows[0].snapshot, events, chatCap);
  }

  /**
   * Every table to drive after a restart: open ones and closed ones whose settlement is pending; with `only`, just
   * those tables (a node taking tables over, issue #13).
   */
  async loadOpen(chatCap: number, only?: string[]): Promise<RestoredTable[]> {
    if (only && !only.length) return [];
    const games: { id: string; snapshot: TableRecord; seq: number; owner_epoch: number }[] = only
      ? await this.ds.query(
          `SELECT id, snapshot, seq, owner_epoch FROM games WHERE id = ANY($1::uuid[]) AND (status <> 'CLOSED' OR snapshot->>'settlement' = 'pending')`,
          [only],
        )
      : await this.ds.query(
          `SELECT id, snapshot, seq, owner_epoch FROM games WHERE status <> 'CLOSED' OR snapshot->>'settlement' = 'pending'`,
        );
    if (!games.length) return [];
    const ids = games.map((g) => g.id);
    const tail: { game_id: string; seq: number; actions: AppliedAction[] | null; delta: TableDelta | null }[] =
      await this.ds.query(
        `SELECT e.game_id, e.seq, e.actions, e.delta FROM game_events e JOIN games g ON g.id = e.game_id
        WHERE e.game_id = ANY($1::uuid[]) AND e.seq > g.seq ORDER BY e.game_id, e.seq`,
        [ids],
      );
    const done: {
      game_id: string;
      actor: string;
      action_id: string;
      type: string;
      payload: unknown;
      result: unknown;
    }[] = await this.ds.query(
      `SELECT e.game_id, e.actor, e.action_id, e.type, e.payload, e.result FROM game_events e JOIN games g ON g.id = e.game_id
        WHERE e.game_id = ANY($1::uuid[]) AND e.action_id IS NOT NULL AND e.seq > g.seq - $2 ORDER BY e.seq`,
      [ids, RESULTS_KEPT],
    );
    const tails = new Map<string, typeof tail>();
    for (const t of tail) (tails.get(t.game_id) ?? tails.set(t.game_id, []).get(t.game_id)!).push(t);
    const results = new Map<string, RestoredTable['results']>();
    for (const d of done)
      (results.get(d.game_id) ?? results.set(d.game_id, []).get(d.game_id)!).push({
        actor: d.actor,
        actionId: d.action_id,
        type: d.type,
        payload: d.payload,
        result: d.result,
      });
    return games.map((g) => {
      const events = tails.get(g.id) ?? [];
      return {
        rec: restoreRecord(g.snapshot, events, chatCap),
        epoch: Number(g.owner_epoch),
        seq: events.length ? Number(events[events.length - 1].seq) : Number(g.seq),
        eventsSinceSnapshot: events.length,
        results: results.get(g.id) ?? [],
      };
    });
  }
}
