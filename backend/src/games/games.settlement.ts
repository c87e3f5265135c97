/**
 * Settlement of a finished (or abandoned) rated game, exactly once: the settlement row is unique per
 * (game, gameNumber); payouts per common's payoutsFor to participants still seated, the rest to the house;
 * stats and the table's snapshot in the same transaction. A crash inside rolls everything back; the boot
 * restore settles again.
 */
import { Injectable } from '@nestjs/common';
import { payoutsFor } from '@spades/common';
import { EntityManager } from 'typeorm';
import { GamesLedger, NOT_ENOUGH_COINS, NotEnoughCoinsError } from './ports';
import { isHuman, TableError, TableRecord } from './table';
import type { TableActor } from './table.actor';
import { TableStore, TableWrite } from './table.store';

export function escrowRef(rec: TableRecord): string {
  return `${rec.id}:${rec.gameNumber}`;
}

@Injectable()
export class GamesSettlement {
  constructor(
    private readonly store: TableStore,
    private readonly ledger: GamesLedger,
  ) {}

  /**
   * Rated start: every human's balance is re-checked inside the start transaction (their coins may have moved
   * since they sat down); one short → the start fails as a whole, nothing moves. The transfers re-check under
   * row locks.
   */
  async collectBuyIns(m: EntityManager, rec: TableRecord): Promise<void> {
    if (rec.settings.buyIn <= 0) return; // issue #27: a tournament table (buy-in 0): nothing to escrow
    const short = await this.ledger.unableToPay(
      m,
      rec.participants.map((p) => p.userId),
      rec.settings.buyIn,
    );
    if (short.length) {
      const names = rec.participants.filter((p) => short.includes(p.userId)).map((p) => p.username);
      throw new TableError(`${NOT_ENOUGH_COINS}: ${names.join(', ')} cannot cover the buy-in`);
    }
    for (const p of rec.participants) {
      try {
        await this.ledger.buyIn(m, p.userId, rec.id, rec.settings.buyIn, escrowRef(rec));
      } catch (e) {
        if (e instanceof NotEnoughCoinsError) throw new TableError(NOT_ENOUGH_COINS);
        throw e;
      }
    }
  }

  /** Settles the actor's current game; returns the settled record (stored as a snapshot with seq `actor.seq + 1`), or null. */
  async settle(actor: TableActor): Promise<TableRecord | null> {
    const rec = structuredClone(actor.rec);
    if (rec.settlement !== 'pending') return null;
    const result = rec.engine.result;
    const abandoned = rec.status === 'CLOSED' && !result;
    const due = result && !abandoned ? payoutsFor(rec.settings, result) : [0, 0, 0, 0];
    const paid = [0, 0, 0, 0];
    await this.store.transaction(async (m) => {
      const ins: unknown[] = await m.query(
        `INSERT INTO game_settlements (game_id, game_number, reason, payouts, house_amount) VALUES ($1, $2, $3, '[]', 0)
         ON CONFLICT DO NOTHING RETURNING game_id`,
        [rec.id, rec.gameNumber, abandoned ? 'abandoned' : 'completed'],
      );
      if (ins.length === 0) {
        const prev: { payouts: number[] }[] = await m.query(
          `SELECT payouts FROM game_settlements WHERE game_id = $1 AND game_number = $2`,
          [rec.id, rec.gameNumber],
        );
        prev[0]?.payouts?.forEach((v, i) => (paid[i] = v));
      } else {
        const ref = escrowRef(rec);
        let transfers = 0;
        for (const p of rec.participants) {
          const amount = due[p.seat];
          const still = rec.seats[p.seat];
          const forfeited = (rec.forfeited ?? []).includes(p.userId);
          if (amount > 0 && !forfeited && isHuman(still) && still.userId === p.userId) {
            await this.ledger.payout(m, rec.id, p.userId, amount, ref);
            paid[p.seat] = amount;
            transfers++;
            if (transfers === 1 && process.env.GAMES_CRASH_DURING_SETTLEMENT === '1') {
              // Test hook: die in the middle of the settlement transaction (crash-safety test).
              process.kill(process.pid, 'SIGKILL');
              await new Promise(() => undefined);
            }
          }
        }
        const house = 4 * rec.settings.buyIn - paid.reduce((a, b) => a + b, 0);
        if (house > 0) await this.ledger.toHouse(m, rec.id, house, ref);
        if (result && !abandoned) await this.ledger.recordStats(m, rec, result);
        await this.ledger.recordRatings(m, rec, { result: abandoned ? null : result, payouts: paid }); // issue #11
        await m.query(
          `UPDATE game_settlements SET payouts = $3, house_amount = $4 WHERE game_id = $1 AND game_number = $2`,
          [rec.id, rec.gameNumber, JSON.stringify(paid), house],
        );
      }
      rec.settlement = 'done';
      rec.payouts = paid;
      const write: TableWrite = {
        gameId: rec.id,
        seq: actor.seq + 1,
        type: 'settlement',
        actor: null,
        actorKind: 'server',
        actionId: null,
        payload: null,
        result: { payouts: paid },
        actions: [],
        delta: { fields: { settlement: 'done', payouts: paid } },
        snapshot: rec,
        hand: null,
        epoch: actor.epoch,
      };
      await this.store.writeIn(m, write);
    });
    return rec;
  }
}
