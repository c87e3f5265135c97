/**
 * The table state machine (pure, no I/O): a `TableRecord` is the whole persisted state of one table
 * (seats, spectators, timers, the rules-engine `GameState`, chat, settlement status). Commands mutate a
 * draft copy and return the notes (events to emit) they produce; the actor persists the draft and emits.
 *
 * Every rule of the game is delegated to `@spades/common` (`apply`, `viewFor`, bots); the machine only
 * decides who may do what at the table and when the server acts by itself. Importers take the machine, the record
 * types (table.record.ts) and the record helpers (table.new.ts) from here.
 */
import type { GameAction, Seat } from '@spades/common';
import { randomInt } from 'node:crypto';
import { newBot } from './table.new';
import { inGame, isHuman, SEATS, type Effects, type TableRecord } from './table.record';
import { TablePlay } from './table.play';
import { timeoutNotice } from './table.timeout';

export * from './table.record';
export { draftOf, freezeCommitted, newBot, newTable } from './table.new';

/**
 * The table logic, in parts each in its own file, each part built on the one before:
 * table.announce.ts (clock, config, game chat) → table.seating.ts (seats, spectators, leaving, closing) →
 * table.hosting.ts (invitations, removals, bots) → table.play.ts (the game: start, deal, moves, Play Again) →
 * here: the timers (when the server acts by itself).
 */
export class TableMachine extends TablePlay {
  // ------------------------------------------------------------------ timers

  /** Recomputes the flow timer after a change (kept when the situation is unchanged). */
  scheduleFlow(rec: TableRecord): void {
    const e = rec.engine;
    const now = this.now();
    if (rec.status === 'WAITING' || rec.status === 'CLOSED') {
      rec.flow = null;
      return;
    }
    if (rec.trickPending) return; // clearTrick timer set when the trick completed
    if (e.phase === 'BIDDING' || e.phase === 'PLAYING') {
      const seat = e.turn as Seat;
      const occ = rec.seats[seat];
      const bidsPlaced = e.bids.filter((b) => b !== null).length;
      const key = `act:${rec.gameNumber}:${e.handNumber}:${e.phase}:${bidsPlaced}:${e.trickNumber}:${e.trick.length}:${seat}:${occ?.userId ?? 'vacant'}`;
      if (rec.flow?.key === key) return;
      if (isHuman(occ)) rec.flow = { kind: 'turn', at: now + (rec.turnMs ?? this.cfg.turnTimeoutMs), key };
      else rec.flow = { kind: 'bot', at: now + this.botDelay(), key };
      return;
    }
    if (e.phase === 'HAND_COMPLETED') {
      const key = `next:${rec.gameNumber}:${e.handNumber}`;
      if (rec.flow?.key !== key) rec.flow = { kind: 'nextHand', at: now + this.cfg.handSummaryMs, key };
      return;
    }
    if (e.phase === 'COMPLETED') {
      const key = `result:${rec.gameNumber}`;
      if (rec.flow?.key !== key) rec.flow = { kind: 'result', at: now + this.cfg.resultMs, key };
    }
  }

  private botDelay(): number {
    const { botDelayMinMs: a, botDelayMaxMs: b } = this.cfg;
    return b > a ? a + randomInt(0, b - a + 1) : a;
  }

  /** Earliest pending deadline (flow or a seat replacement), or null. */
  nextDeadline(rec: TableRecord): number | null {
    const all = [rec.flow?.at ?? null, ...rec.replacements].filter((x): x is number => x !== null);
    return all.length ? Math.min(...all) : null;
  }

  /** Runs what is due at `now`: seat replacements, then the flow timer. Returns the log type or null. */
  /** The seat the due flow timer will play for (bot / timed-out human), or null. */
  dueActor(rec: TableRecord): Seat | null {
    const f = rec.flow;
    const e = rec.engine;
    if (!f || f.at > this.now() || (f.kind !== 'turn' && f.kind !== 'bot')) return null;
    return e.phase === 'BIDDING' || e.phase === 'PLAYING' ? e.turn : null;
  }

  tick(rec: TableRecord, fx: Effects, planned: GameAction[] = []): boolean {
    const now = this.now();
    let changed = false;
    for (const s of SEATS) {
      const at = rec.replacements[s];
      if (at !== null && at <= now) {
        rec.replacements[s] = null;
        if (rec.seats[s] === null && inGame(rec)) {
          rec.seats[s] = newBot(s);
          this.postSystem(rec, fx, `A bot was invited to seat ${s + 1}.`);
          fx.lobby = true;
        }
        fx.logType = 'seat_replacement';
        changed = true;
      }
    }
    const flow = rec.flow;
    if (flow && flow.at <= now) {
      changed = true;
      rec.flow = null;
      const e = rec.engine;
      switch (flow.kind) {
        case 'turn':
        case 'bot': {
          if (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') break;
          const seat = e.turn as Seat;
          const occ = rec.seats[seat];
          const timedOut = flow.kind === 'turn' && isHuman(occ);
          fx.logType = timedOut ? 'timeout' : 'bot';
          this.autoAct(rec, fx, seat, planned, timedOut ? 'timeout' : 'bot');
          if (timedOut) {
            rec.timeouts[seat] += 1;
            const missed = rec.timeouts[seat];
            timeoutNotice(fx, rec.id, occ.userId, seat, missed, this.cfg.maxConsecutiveTimeouts);
            if (missed >= this.cfg.maxConsecutiveTimeouts) {
              fx.removedUsers.push(occ.userId);
              this.markDeparted(rec, occ.userId);
              this.vacate(rec, fx, seat);
              this.postSystem(rec, fx, `${occ.username} was removed after ${missed} missed turns.`);
              this.closeIfAbandoned(rec, fx, 'All players left the table');
            }
          }
          break;
        }
        case 'clearTrick':
          fx.logType = 'clear_trick';
          this.clearTrick(rec, fx);
          break;
        case 'nextHand':
          fx.logType = 'deal';
          if (e.phase === 'HAND_COMPLETED') this.deal(rec, fx);
          break;
        case 'result':
          fx.logType = 'result';
          if (rec.status === 'COMPLETED') this.maybeRestart(rec, fx, true);
          break;
      }
    }
    return changed;
  }
}
