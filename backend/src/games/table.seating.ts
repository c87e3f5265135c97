/**
 * Who sits and who watches (part of the table machine, table.ts): taking a seat, watching, leaving, the
 * replacement countdown of a vacated seat, and closing a table nobody is left at. Pure, no I/O. Split from
 * table.ts (issue #29).
 */
import type { Seat } from '@spades/common';
import { TableAnnouncer } from './table.announce';
import { newBot } from './table.new';
import {
  type Effects,
  type Participant,
  type SeatOccupant,
  type TableRecord,
  humans,
  inGame,
  isHuman,
  isSpectator,
  SEAT_RESERVED,
  SEATS,
  seatOf,
  TableError,
} from './table.record';
import { everyReservedSeated, reservedSeatOpen, TOURNAMENT_TABLE_ERRORS, tournamentSeatFor } from './tournament-tables';
import { isPrivate, reservedSeats } from './visibility';

/** Seating and watching; the game itself starts in table.play.ts (`beginGame`). */
export abstract class TableSeating extends TableAnnouncer {
  /** Starts a game with the seats as they are (table.play.ts). */
  protected abstract beginGame(rec: TableRecord, fx: Effects): void;

  /** Seats `user` (first free seat when `seat` is undefined). Returns the seat. */
  join(rec: TableRecord, fx: Effects, user: Participant, seat: number | undefined): Seat {
    const current = seatOf(rec, user.userId);
    if (current !== null) {
      if (seat === undefined || seat === current) return current;
      throw new TableError('You are already seated at this table');
    }
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (rec.status === 'COMPLETED') throw new TableError('This game is over');
    let target: number;
    const reserved = reservedSeats(rec, this.now());
    const heldForOther = (i: number) => reserved.has(i) && reserved.get(i) !== user.userId;
    if (rec.tournament) {
      // issue #27: only the seat reserved for this user
      if (seat !== undefined && seat !== null && (!Number.isInteger(seat) || seat < 0 || seat > 3))
        throw new TableError('Invalid seat');
      target = tournamentSeatFor(rec, user.userId, seat);
    } else if (seat === undefined || seat === null) {
      const mine = [...reserved].find(([, u]) => u === user.userId)?.[0];
      target =
        mine !== undefined
          ? mine
          : rec.status === 'WAITING'
            ? rec.seats.findIndex((s, i) => s === null && !heldForOther(i))
            : rec.replacements.findIndex((r, i) => r !== null && rec.seats[i] === null);
      if (target < 0) throw new TableError('No free seat at this table');
    } else {
      if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new TableError('Invalid seat');
      target = seat;
      if (rec.seats[target] !== null) throw new TableError('That seat is taken');
      if (heldForOther(target)) throw new TableError(SEAT_RESERVED);
      if (rec.status !== 'WAITING' && rec.replacements[target] === null) throw new TableError('That seat is not open');
    }
    rec.seats[target] = { ...user, kind: 'human' };
    rec.spectators = rec.spectators.filter((s) => s.userId !== user.userId);
    rec.departed = (rec.departed ?? []).filter((u) => u !== user.userId);
    this.admit(rec, user.userId);
    rec.replacements[target] = null;
    rec.timeouts[target] = 0;
    fx.lobby = true;
    this.announce(rec, fx, user);
    if (everyReservedSeated(rec)) {
      this.postSystem(rec, fx, 'Every player is seated: the tournament game starts.');
      this.beginGame(rec, fx);
    }
    return target as Seat;
  }

  /**
   * Issue #27: the tournament's seat deadline passed with seats still empty: bots take them and the game starts
   * (unrated unless four humans sit). False when the game had already started.
   */
  startWithBots(rec: TableRecord, fx: Effects): boolean {
    if (!rec.tournament) throw new TableError('Not a tournament table');
    if (rec.status === 'CLOSED') throw new TableError(TOURNAMENT_TABLE_ERRORS.CLOSED, 409);
    if (rec.status !== 'WAITING') return false;
    for (const s of SEATS) {
      if (rec.seats[s] !== null) continue;
      rec.seats[s] = newBot(s);
      this.postSystem(rec, fx, `A bot was invited to seat ${s + 1}.`);
    }
    this.beginGame(rec, fx);
    return true;
  }

  /**
   * What a socket `join_game` may do for a user: `member` (seated or watching: only re-subscribe, never
   * change seating), `watch` (left this table or lost the seat: watch, an explicit join is needed to sit),
   * or `sit` (a newcomer: take a seat like an explicit join, else watch).
   */
  socketJoinMode(rec: TableRecord, userId: string): 'member' | 'watch' | 'sit' {
    if (seatOf(rec, userId) !== null) return 'member';
    // issue #27: a tournament player whose seat is open sits in it (also when watching or after leaving it)
    if (reservedSeatOpen(rec, userId)) return 'sit';
    if (isSpectator(rec, userId)) return 'member';
    if ((rec.departed ?? []).includes(userId)) return 'watch';
    return 'sit';
  }

  protected markDeparted(rec: TableRecord, userId: string): void {
    rec.departed = [...(rec.departed ?? []).filter((u) => u !== userId), userId];
  }

  /**
   * `user` watches the table. Returns false when nothing changed (already watching, admitted and announced: e.g. a
   * spectator's socket coming back after a reconnect), so the caller stores and sends nothing.
   */
  spectate(rec: TableRecord, fx: Effects, user: Participant): boolean {
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (seatOf(rec, user.userId) !== null) throw new TableError('You are seated at this table');
    const watching = rec.spectators.some((s) => s.userId === user.userId);
    if (!watching) rec.spectators.push(user);
    const admit = isPrivate(rec) && !(rec.admitted ?? []).includes(user.userId);
    if (admit) rec.admitted = [...(rec.admitted ?? []), user.userId];
    const announced = this.announceWatching(rec, fx, user);
    return !watching || admit || announced;
  }

  /**
   * A human leaves (seat or spectators); the game chat says so. In a running game the seat is vacated with a
   * replacement countdown (the bot logic plays it meanwhile, then a bot takes it). The table closes only when
   * nobody is left to play or watch (see closeIfAbandoned).
   */
  leave(rec: TableRecord, fx: Effects, userId: string, why = ''): void {
    const seat = seatOf(rec, userId);
    const watcher = rec.spectators.find((s) => s.userId === userId);
    if (seat === null && !watcher) throw new TableError('You are not at this table');
    rec.spectators = rec.spectators.filter((s) => s.userId !== userId);
    fx.removedUsers.push(userId);
    this.markDeparted(rec, userId);
    if (seat === null) {
      fx.lobby = true; // spectator count
      this.postSystem(rec, fx, `${watcher!.username} stopped watching.`);
      this.closeIfAbandoned(rec, fx, 'Nobody is left at the table');
      return;
    }
    const name = (rec.seats[seat] as SeatOccupant).username;
    fx.lobby = true;
    rec.playAgain = rec.playAgain.filter((u) => u !== userId);
    rec.handAcks = rec.handAcks.filter((u) => u !== userId);
    if (inGame(rec)) {
      this.vacate(rec, fx, seat);
      this.postSystem(rec, fx, `${name} left the game${why}. A bot plays seat ${seat + 1}.`);
    } else {
      rec.seats[seat] = null;
      this.postSystem(rec, fx, `${name} left the table${why}.`);
    }
    this.closeIfAbandoned(rec, fx, 'All players left the table');
  }

  /** Frees a seat in a running game and starts the replacement countdown (a bot fills it at expiry). */
  vacate(rec: TableRecord, fx: Effects, seat: Seat): void {
    const occ = rec.seats[seat];
    if (rec.rated && isHuman(occ) && rec.participants.some((p) => p.userId === occ.userId)) {
      rec.forfeited = [...(rec.forfeited ?? []).filter((u) => u !== occ.userId), occ.userId];
    }
    rec.seats[seat] = null;
    rec.timeouts[seat] = 0;
    const expiresAt = this.now() + this.cfg.seatReplacementMs;
    rec.replacements[seat] = expiresAt;
    fx.notes.push({ type: 'seat_replacement_started', seatIndex: seat, expiresAt });
  }

  /**
   * Closes the table when nobody is left for it: no seated human and, while a game runs (or its result shows),
   * no spectator either: spectators keep watching the bots play. A WAITING table without a seated human has
   * nobody to start it: it closes, and the spectators are told why (`game_closed {reason}`).
   */
  closeIfAbandoned(rec: TableRecord, fx: Effects, reason: string): void {
    if (rec.status === 'CLOSED' || humans(rec).length > 0) return;
    // issue #27: a tournament table waits for its players (the tournament starts or closes it) and a running
    // tournament game is played to the end by bots: the match needs its result
    if (rec.tournament && (rec.status === 'WAITING' || inGame(rec))) return;
    const running = inGame(rec) || rec.status === 'COMPLETED';
    if (running && rec.spectators.length > 0) return;
    this.close(rec, fx, reason);
  }

  close(rec: TableRecord, fx: Effects, reason: string): void {
    rec.status = 'CLOSED';
    rec.closedReason = reason;
    rec.flow = null;
    rec.replacements = [null, null, null, null];
    rec.finishedAt = rec.finishedAt ?? this.now();
    // invitations expire with the table
    for (const i of rec.invitations ?? []) {
      fx.direct.push({ userId: i.userId, event: 'game_invitation_cancelled', payload: { gameId: rec.id, reason } });
    }
    rec.invitations = [];
    // A rated game abandoned by every human: the escrow goes to the house (leavers forfeit).
    if (rec.rated && rec.settlement === 'none') rec.settlement = 'pending';
    fx.lobby = true;
    fx.notes.push({ type: 'game_closed', reason });
  }

  /** Joined with an invitation: the invitation is used up; a private table lets the user come back. */
  protected admit(rec: TableRecord, userId: string): void {
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    if (isPrivate(rec) && !(rec.admitted ?? []).includes(userId)) rec.admitted = [...(rec.admitted ?? []), userId];
  }
}
