/**
 * Table ownership across nodes (issue #13): `games.owner_node` + `games.owner_epoch` (the fencing token).
 *
 * - A node drives a table only after raising its epoch to a value it then carries in every write; the table
 *   store checks the carried epoch inside each write's transaction (`SELECT … FOR SHARE`), so a node whose table
 *   was taken over (a higher epoch) can no longer write to it, however late it wakes up.
 * - Take-overs are compare-and-set on the epoch (or on "the owner is not a live node"), so two nodes never both
 *   win the same table.
 * Open = what a restart restores: not CLOSED, or CLOSED with a settlement still pending.
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';

const OPEN = `(status <> 'CLOSED' OR snapshot->>'settlement' = 'pending')`;

export interface Owner {
  node: string | null;
  epoch: number;
}

/** A write carried an epoch the table no longer has: another node owns it now. */
export class FencedError extends Error {
  constructor(readonly gameId: string) {
    super(`table ${gameId} is owned by another node now`);
    this.name = 'FencedError';
  }
}

@Injectable()
export class TableOwnership {
  constructor(private readonly ds: DataSource) {}

  /** The stored owner of a table; null when the table is unknown. */
  async ownerOf(gameId: string): Promise<Owner | null> {
    const rows: { owner_node: string | null; owner_epoch: number }[] = await this.ds.query(
      `SELECT owner_node, owner_epoch FROM games WHERE id = $1`,
      [gameId],
    );
    return rows.length ? { node: rows[0].owner_node, epoch: Number(rows[0].owner_epoch) } : null;
  }

  /** Takes one table over if its owner is still `expected` (compare-and-set); the new epoch, or null if lost. */
  async claim(gameId: string, node: string, expected: Owner): Promise<number | null> {
    const rows = returnedRows<{ owner_epoch: number }>(
      await this.ds.query(
        `UPDATE games SET owner_node = $2, owner_epoch = owner_epoch + 1 WHERE id = $1 AND owner_epoch = $3 AND ${OPEN} RETURNING owner_epoch`,
        [gameId, node, expected.epoch],
      ),
    );
    return rows.length ? Number(rows[0].owner_epoch) : null;
  }

  /**
   * Takes over up to `limit` open tables whose owner is not among the `live` nodes (dead, or never owned), plus,
   * with `mine`, the ones a previous run of this node owned. Rows another node is claiming right now are skipped.
   */
  async claimOrphans(
    node: string,
    live: string[],
    limit: number,
    mine = false,
  ): Promise<{ id: string; epoch: number }[]> {
    const rows = returnedRows<{ id: string; owner_epoch: number }>(
      await this.ds.query(
        `UPDATE games g SET owner_node = $1, owner_epoch = g.owner_epoch + 1
         FROM (SELECT id FROM games
                WHERE ${OPEN} AND (owner_node IS NULL OR NOT (owner_node = ANY($2::text[])) ${mine ? 'OR owner_node = $1' : ''})
                ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) o
        WHERE g.id = o.id
        RETURNING g.id, g.owner_epoch`,
        [node, live, limit],
      ),
    );
    return rows.map((r) => ({ id: r.id, epoch: Number(r.owner_epoch) }));
  }

  /** Hands a table this node owns at `epoch` to `to` (drain); false when it was not ours any more. */
  async handOver(gameId: string, epoch: number, to: string): Promise<boolean> {
    const rows = returnedRows<{ id: string }>(
      await this.ds.query(
        `UPDATE games SET owner_node = $3, owner_epoch = owner_epoch + 1 WHERE id = $1 AND owner_epoch = $2 RETURNING id`,
        [gameId, epoch, to],
      ),
    );
    return rows.length > 0;
  }
}
