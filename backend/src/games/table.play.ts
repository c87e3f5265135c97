/**
 * The game at the table (part of the table machine, table.ts): the start, deals, bids and cards through the rules
 * engine (`apply`), the bot logic's moves, clearing a trick, the next hand and Play Again. Every rule is
 * `@spades/common`'s; this part decides who may act and records what happened. Pure, no I/O. Split from table.ts
 * (issue #29).
 */
import {
  apply,
  type CompletedTrick,
  createGame,
  engineErrorMessage,
  type GameAction,
  normalizeCard,
  type Seat,
  viewFor,
} from '@spades/common';
import { randomBytes, randomInt } from 'node:crypto';
import { pickBot } from './bots';
import { TableHosting } from './table.hosting';
import { draftOf } from './table.new';
import {
  type ActorKind,
  type Effects,
  type SeatOccupant,
  type TableRecord,
  hostId,
  humans,
  isHuman,
  newEffects,
  SEATS,
  seatOf,
  TableError,
} from './table.record';
import { TOURNAMENT_TABLE_ERRORS } from './tournament-tables';

/** Starting, playing and restarting games. */
export abstract class TablePlay extends TableHosting {
  // ------------------------------------------------------------------ game flow

  /** Host starts: four seats filled. Rated when four humans. Returns whether buy-ins must go to escrow. */
  start(rec: TableRecord, fx: Effects, requesterId: string): void {
    if (rec.status !== 'WAITING') throw new TableError('The game has already started');
    if (rec.tournament) throw new TableError(TOURNAMENT_TABLE_ERRORS.STARTS_BY_ITSELF, 403);
    if (hostId(rec) !== requesterId || seatOf(rec, requesterId) === null)
      throw new TableError('Only the host can start the game', 403);
    if (rec.seats.some((s) => s === null)) throw new TableError('All four seats must be filled to start');
    this.beginGame(rec, fx);
  }

  protected override beginGame(rec: TableRecord, fx: Effects): void {
    const hs = rec.seats.filter(isHuman);
    rec.rated = hs.length === 4;
    rec.participants = rec.rated
      ? rec.seats.map((s, i) => ({
          seat: i as Seat,
          userId: (s as SeatOccupant).userId,
          username: (s as SeatOccupant).username,
        }))
      : [];
    rec.settlement = 'none';
    rec.payouts = null;
    rec.forfeited = [];
    rec.engine = createGame(rec.settings);
    rec.timeouts = [0, 0, 0, 0];
    rec.replacements = [null, null, null, null];
    rec.playAgain = [];
    rec.handAcks = [];
    rec.trickPending = false;
    rec.finishedAt = null;
    fx.escrow = rec.rated;
    fx.lobby = true;
    this.deal(rec, fx);
  }

  /** Deals the next hand from a fresh CSPRNG seed. */
  deal(rec: TableRecord, fx: Effects): void {
    const seed = randomBytes(32);
    this.applyEngine(rec, fx, { type: 'deal', seed: seed.toString('hex') }, 'server');
    rec.handAcks = [];
  }

  /**
   * Applies an engine action, records it for the event log (with who made it) and the notes describing the
   * change. Throws TableError on refusal.
   */
  applyEngine(rec: TableRecord, fx: Effects, action: GameAction, by: ActorKind): void {
    const prev = rec.engine;
    const r = apply(prev, action);
    if (!r.ok) throw new TableError(engineErrorMessage(r.error), 400, r.error);
    const next = r.state;
    rec.engine = next;
    fx.actions.push({ gameNumber: rec.gameNumber, by, action: structuredClone(action) });
    rec.status = next.phase === 'WAITING' ? 'WAITING' : next.phase;
    if (next.handNumber !== prev.handNumber) {
      fx.notes.push({ type: 'new_hand_started' });
      fx.notes.push({ type: 'bidding_ready' });
      return;
    }
    // a bid or a card within a trick: the command's game_update carries it (no client listens to a separate
    // bidding_update / bidding_complete / play_start / play_update, so none is sent — issue #29)
    if (prev.phase === 'PLAYING' && next.trickNumber !== prev.trickNumber) {
      const done = next.lastTrick as CompletedTrick;
      fx.notes.push({ type: 'trick_complete', trick: done, trickNumber: next.trickNumber });
      rec.trickPending = true;
      rec.flow = {
        kind: 'clearTrick',
        at: this.now() + this.cfg.trickDisplayMs,
        key: `clear:${rec.gameNumber}:${next.handNumber}:${next.trickNumber}`,
      };
      if (next.phase === 'COMPLETED') {
        rec.finishedAt = this.now();
        if (rec.rated) rec.settlement = 'pending';
        fx.lobby = true;
      }
    }
  }

  /** Clears a displayed trick; after the last trick shows the hand summary or the game result. */
  clearTrick(rec: TableRecord, fx: Effects): void {
    if (!rec.trickPending) return;
    rec.trickPending = false;
    rec.flow = null;
    fx.notes.push({ type: 'clear_trick' });
    const e = rec.engine;
    if (e.phase === 'HAND_COMPLETED' || e.phase === 'COMPLETED') {
      fx.notes.push({ type: 'hand_completed', record: e.history[e.history.length - 1] });
    }
    if (e.phase === 'COMPLETED') fx.notes.push({ type: 'game_over' });
  }

  /** A seated human's bid or card (or reveal). */
  humanAction(
    rec: TableRecord,
    fx: Effects,
    userId: string,
    action: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
  ): void {
    const seat = seatOf(rec, userId);
    if (seat === null) throw new TableError('You are not seated at this table', 403);
    if (action === 'play' && rec.trickPending && rec.engine.phase === 'PLAYING') this.clearTrick(rec, fx);
    let ga: GameAction;
    if (action === 'reveal') ga = { type: 'reveal', seat };
    else if (action === 'bid') {
      const bid = typeof payload.bid === 'string' ? Number(payload.bid) : payload.bid;
      ga = { type: 'bid', seat, bid: bid as number, blind: payload.blind === true };
    } else {
      const card = normalizeCard(payload.card);
      if (!card) throw new TableError(engineErrorMessage('INVALID_CARD'));
      ga = { type: 'play', seat, card };
    }
    this.applyEngine(rec, fx, ga, 'human');
    if (action !== 'reveal') rec.timeouts[seat] = 0;
  }

  /** Plays the current turn with the bot logic (bot seat, vacated seat, or a timed-out human). */
  autoAct(rec: TableRecord, fx: Effects, seat: Seat, planned: GameAction[] = [], by: 'bot' | 'timeout' = 'bot'): void {
    // Actions decided beforehand by the (asynchronous) strong bot pool, if any: applied while legal.
    for (const action of planned) {
      const e = rec.engine;
      if ((e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || e.turn !== seat) return;
      const draft = draftOf(rec);
      const dfx = newEffects(fx.logType);
      try {
        this.applyEngine(draft, dfx, action, by);
      } catch {
        break; // illegal: fall back to the synchronous bot below
      }
      Object.assign(rec, draft);
      fx.notes.push(...dfx.notes);
      fx.actions.push(...dfx.actions);
      fx.lobby ||= dfx.lobby;
      if (action.type !== 'reveal') return;
    }
    const bot = pickBot(rec.seats[seat]?.level ?? this.cfg.botLevel);
    const rng = () => randomInt(0, 2 ** 32) / 2 ** 32;
    for (let i = 0; i < 3; i++) {
      const e = rec.engine;
      if ((e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || e.turn !== seat) return;
      const view = viewFor(e, seat);
      const action = bot.act(view, rng);
      if (!action) throw new Error(`bot ${bot.name} returned no action`);
      this.applyEngine(rec, fx, action, by);
      if (action.type !== 'reveal') return;
    }
  }

  startNewHand(rec: TableRecord, fx: Effects, userId: string): void {
    if (seatOf(rec, userId) === null) throw new TableError('You are not seated at this table', 403);
    if (rec.status !== 'HAND_COMPLETED') return; // idempotent: already dealt (or not yet over)
    if (!rec.handAcks.includes(userId)) rec.handAcks.push(userId);
    if (!rec.trickPending && humans(rec).every((h) => rec.handAcks.includes(h.userId))) this.deal(rec, fx);
  }

  playAgain(rec: TableRecord, fx: Effects, userId: string): void {
    if (seatOf(rec, userId) === null) throw new TableError('You are not seated at this table', 403);
    if (rec.tournament) throw new TableError(TOURNAMENT_TABLE_ERRORS.NO_PLAY_AGAIN);
    if (rec.status === 'WAITING') return;
    if (rec.status !== 'COMPLETED') throw new TableError('The game is not over');
    if (!rec.playAgain.includes(userId)) rec.playAgain.push(userId);
    this.maybeRestart(rec, fx, false);
  }

  /**
   * After a game: when every seated human chose Play Again, a new game starts at once if all four seats
   * are filled (bots keep their seats); at the end of the result timer, humans who did not choose leave
   * and the table returns to WAITING (or closes when no human is left).
   */
  protected maybeRestart(rec: TableRecord, fx: Effects, expired: boolean): void {
    if (rec.settlement === 'pending') return; // settle first (the actor runs settlement right after commit)
    const hs = humans(rec);
    const ready = hs.filter((h) => rec.playAgain.includes(h.userId));
    if (!expired && ready.length < hs.length) return;
    for (const s of SEATS) {
      const o = rec.seats[s];
      if (isHuman(o) && !rec.playAgain.includes(o.userId)) {
        rec.seats[s] = null;
        fx.removedUsers.push(o.userId);
        this.markDeparted(rec, o.userId);
        this.postSystem(rec, fx, `${o.username} left the table.`);
      }
    }
    if (humans(rec).length === 0) {
      this.close(rec, fx, 'No players left at the table');
      return;
    }
    rec.gameNumber += 1;
    rec.status = 'WAITING';
    // '{name} joined the game.' is posted once per game (spec §7): a new game announces again.
    rec.announced = [];
    rec.engine = createGame(rec.settings);
    rec.flow = null;
    rec.rated = false;
    rec.participants = [];
    rec.settlement = 'none';
    rec.payouts = null;
    rec.playAgain = [];
    rec.trickPending = false;
    fx.lobby = true;
    if (rec.seats.every((s) => s !== null) && humans(rec).length < 4 && !expired) {
      // One human with bots (or some bots): start the new game right away (unrated).
      this.beginGame(rec, fx);
    }
  }
}
