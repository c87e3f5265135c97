/**
 * Issue #27: where tournaments live. `tournaments` holds the config, the snapshot of the state (every stored event
 * applied) and its event count `seq`, plus the owner node and its fencing epoch (like `games`, table.ownership.ts);
 * `tournament_events` the events themselves, unique per (tournament_id, seq). Every write happens inside the caller's
 * transaction after `lock` (SELECT … FOR UPDATE): a driver write carries the epoch it owns the tournament at and is
 * refused (`TournamentFencedError`, nothing written) when another node has raised it since.
 */
import { Injectable } from '@nestjs/common';
import type { TournamentEvent, TournamentState, TournamentStatus } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '../database/returned-rows';

/** A driver write carried an epoch the tournament no longer has: another node drives it now. */
export class TournamentFencedError extends Error {
  constructor(readonly tournamentId: string) {
    super(`tournament ${tournamentId} is driven by another node now`);
    this.name = 'TournamentFencedError';
  }
}

export interface StoredTournament {
  state: TournamentState;
  seq: number;
  ownerNode: string | null;
  ownerEpoch: number;
  createdByName: string;
}

interface Row {
  state: TournamentState;
  seq: number;
  owner_node: string | null;
  owner_epoch: number;
  created_by_name: string | null;
}

const OPEN = `status IN ('REGISTERING', 'RUNNING')`;

const toStored = (r: Row): StoredTournament => ({
  state: r.state,
  seq: Number(r.seq),
  ownerNode: r.owner_node,
  ownerEpoch: Number(r.owner_epoch),
  createdByName: r.created_by_name ?? 'deleted player',
});

/** Every user a state names (registrations and entrants): the rows of `tournament_players` (history lookups). */
export function playersOf(s: TournamentState): string[] {
  const ids = new Set<string>();
  for (const r of s.registrations) ids.add(r.userId);
  for (const e of s.entrants) for (const p of e.players) ids.add(p.userId);
  return [...ids];
}

@Injectable()
export class TournamentsStore {
  constructor(private readonly ds: DataSource) {}

  /** A new tournament (no events yet), owned by `ownerNode` at epoch 1. */
  async insert(m: EntityManager, s: TournamentState, ownerNode: string): Promise<void> {
    await m.query(
      `INSERT INTO tournaments (id, kind, status, name, config, state, seq, starts_at, created_by, owner_node, owner_epoch, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, 0, $7, $8, $9, 1, $10)`,
      [
        s.id,
        s.config.kind,
        s.status,
        s.config.name,
        JSON.stringify(s.config),
        JSON.stringify(s),
        s.config.startsAt === null ? null : new Date(s.config.startsAt),
        s.config.createdBy,
        ownerNode,
        new Date(s.createdAt),
      ],
    );
  }

  /** The tournament locked for this transaction (FOR UPDATE), or null. */
  async lock(m: EntityManager, id: string): Promise<StoredTournament | null> {
    const rows: Row[] = await m.query(
      `SELECT t.state, t.seq, t.owner_node, t.owner_epoch, u.username AS created_by_name
         FROM tournaments t LEFT JOIN users u ON u.id = t.created_by WHERE t.id = $1 FOR UPDATE OF t`,
      [id],
    );
    return rows.length ? toStored(rows[0]) : null;
  }

  async get(id: string, m: EntityManager = this.ds.manager): Promise<StoredTournament | null> {
    const rows: Row[] = await m.query(
      `SELECT t.state, t.seq, t.owner_node, t.owner_epoch, u.username AS created_by_name
         FROM tournaments t LEFT JOIN users u ON u.id = t.created_by WHERE t.id = $1`,
      [id],
    );
    return rows.length ? toStored(rows[0]) : null;
  }

  /**
   * Appends event number `seq + 1` and stores the new snapshot. `epoch` (driver writes): the row must still carry it,
   * else `TournamentFencedError` (the caller's transaction rolls back).
   */
  async append(
    m: EntityManager,
    prev: StoredTournament,
    event: TournamentEvent,
    next: TournamentState,
    epoch: number | null,
  ): Promise<number> {
    const seq = prev.seq + 1;
    const updated = returnedRows<{ id: string }>(
      await m.query(
        `UPDATE tournaments SET state = $2::jsonb, seq = $3, status = $4, finished_at = $5
          WHERE id = $1 AND seq = $6 ${epoch === null ? '' : 'AND owner_epoch = $7'} RETURNING id`,
        [
          next.id,
          JSON.stringify(next),
          seq,
          next.status,
          next.finishedAt === null ? null : new Date(next.finishedAt),
          prev.seq,
          ...(epoch === null ? [] : [epoch]),
        ],
      ),
    );
    if (!updated.length) throw new TournamentFencedError(next.id);
    await m.query(`INSERT INTO tournament_events (tournament_id, seq, event) VALUES ($1, $2, $3::jsonb)`, [
      next.id,
      seq,
      JSON.stringify(event),
    ]);
    const players = playersOf(next);
    if (players.length)
      await m.query(
        `INSERT INTO tournament_players (tournament_id, user_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
        [next.id, players],
      );
    return seq;
  }

  async events(id: string): Promise<TournamentEvent[]> {
    const rows: { event: TournamentEvent }[] = await this.ds.query(
      `SELECT event FROM tournament_events WHERE tournament_id = $1 ORDER BY seq`,
      [id],
    );
    return rows.map((r) => r.event);
  }

  async list(statuses: TournamentStatus[], limit = 100): Promise<StoredTournament[]> {
    const rows: Row[] = await this.ds.query(
      `SELECT t.state, t.seq, t.owner_node, t.owner_epoch, u.username AS created_by_name
         FROM tournaments t LEFT JOIN users u ON u.id = t.created_by
        WHERE t.status = ANY($1::text[]) ORDER BY t.created_at DESC LIMIT $2`,
      [statuses, limit],
    );
    return rows.map(toStored);
  }

  /** Tournaments a user registered for or played in (newest first). */
  async ofUser(userId: string, limit = 100): Promise<StoredTournament[]> {
    const rows: Row[] = await this.ds.query(
      `SELECT t.state, t.seq, t.owner_node, t.owner_epoch, u.username AS created_by_name
         FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id LEFT JOIN users u ON u.id = t.created_by
        WHERE p.user_id = $1 ORDER BY t.created_at DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map(toStored);
  }

  /** Scheduled tournaments still registering whose start time has come. */
  async due(now: number): Promise<string[]> {
    const rows: { id: string }[] = await this.ds.query(
      `SELECT id FROM tournaments WHERE status = 'REGISTERING' AND kind = 'scheduled' AND starts_at <= $1 ORDER BY starts_at`,
      [new Date(now)],
    );
    return rows.map((r) => r.id);
  }

  // ------------------------------------------------------------------ ownership (fencing epoch)

  /** Open tournaments this node owns, with the epoch. */
  async owned(node: string): Promise<{ id: string; epoch: number }[]> {
    const rows: { id: string; owner_epoch: number }[] = await this.ds.query(
      `SELECT id, owner_epoch FROM tournaments WHERE ${OPEN} AND owner_node = $1`,
      [node],
    );
    return rows.map((r) => ({ id: r.id, epoch: Number(r.owner_epoch) }));
  }

  /**
   * Takes over open tournaments whose owner is not among `live` (dead, or none), plus, with `mine`, those a previous
   * run of this node owned: the epoch goes up, so the old owner's late writes are refused. Compare-and-set per row.
   */
  async claimOrphans(node: string, live: string[], mine: boolean): Promise<{ id: string; epoch: number }[]> {
    const rows = returnedRows<{ id: string; owner_epoch: number }>(
      await this.ds.query(
        `UPDATE tournaments t SET owner_node = $1, owner_epoch = t.owner_epoch + 1
           FROM (SELECT id FROM tournaments
                  WHERE ${OPEN} AND (owner_node IS NULL OR NOT (owner_node = ANY($2::text[])) ${mine ? 'OR owner_node = $1' : ''})
                  ORDER BY id LIMIT 1000 FOR UPDATE SKIP LOCKED) o
          WHERE t.id = o.id RETURNING t.id, t.owner_epoch`,
        [node, live],
      ),
    );
    return rows.map((r) => ({ id: r.id, epoch: Number(r.owner_epoch) }));
  }

  /**
   * Drain: gives an open tournament this node owns at `epoch` to `to` (epoch + 1, so this node's late writes are
   * fenced). Compare-and-set: null when it is no longer this node's at that epoch (taken over meanwhile, or closed).
   */
  async handOver(id: string, from: string, epoch: number, to: string): Promise<number | null> {
    const rows = returnedRows<{ owner_epoch: number }>(
      await this.ds.query(
        `UPDATE tournaments SET owner_node = $4, owner_epoch = owner_epoch + 1
          WHERE id = $1 AND owner_node = $2 AND owner_epoch = $3 AND ${OPEN} RETURNING owner_epoch`,
        [id, from, epoch, to],
      ),
    );
    return rows.length ? Number(rows[0].owner_epoch) : null;
  }

  /** The stored owner of a tournament. */
  async ownerOf(id: string): Promise<{ node: string | null; epoch: number } | null> {
    const rows: { owner_node: string | null; owner_epoch: number }[] = await this.ds.query(
      `SELECT owner_node, owner_epoch FROM tournaments WHERE id = $1`,
      [id],
    );
    return rows.length ? { node: rows[0].owner_node, epoch: Number(rows[0].owner_epoch) } : null;
  }

  // ------------------------------------------------------------------ scheduler lease

  /**
   * Takes or renews the lease `name` for `holder` for `ms` (database clock): true while this holder has it. A lease
   * runs out when its holder stops renewing it; then the next caller takes it.
   */
  async lease(name: string, holder: string, ms: number): Promise<boolean> {
    const rows = returnedRows<{ holder: string }>(
      await this.ds.query(
        `INSERT INTO scheduler_leases (name, holder, expires_at) VALUES ($1, $2, now() + ($3::int * interval '1 millisecond'))
         ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
          WHERE scheduler_leases.holder = EXCLUDED.holder OR scheduler_leases.expires_at < now()
         RETURNING holder`,
        [name, holder, ms],
      ),
    );
    return rows.length > 0 && rows[0].holder === holder;
  }

  /** Gives the lease up (clean shutdown), so another node takes it at once. */
  async releaseLease(name: string, holder: string): Promise<void> {
    await this.ds.query(`DELETE FROM scheduler_leases WHERE name = $1 AND holder = $2`, [name, holder]);
  }
}
