/**
 * What the console does to a table (issue #25), as pure command bodies on a table draft: they run inside the
 * table's queue through `GamesService.command` (stored as one event row, fanned out, restart-exact like every
 * other command). The table rules are the games module's own (`TableMachine.leave`, `vacate`, `close`), so a
 * staff removal is exactly a leave: a rated participant forfeits their buy-in, the table closes when nobody is
 * left, a closed rated game's escrow goes to the house (games.settlement.ts).
 */
import { CONSOLE_TABLE_CLOSED_REASON, CONSOLE_TABLE_ERRORS } from '@spades/common';
import { Effects, inGame, seatOf, TableError, TableMachine, TableRecord } from '../games/table';
import { newBot } from '../games/table.new';

/** The table chat's words for a staff removal (the reason goes to the player and the audit log, not the table). */
export const REMOVED_BY_STAFF = ' (removed by a moderator)';

/** What a removal changed, for the audit log. */
export interface Eviction {
  gameId: string;
  /** The seat the user held, or null (watching / invited only). */
  seat: number | null;
  /** The table was running a game: a bot took the seat. */
  botSeated: boolean;
  /** The user was a rated participant: their buy-in is forfeited (leaver rules). */
  forfeited: boolean;
  /** The table closed because nobody was left. */
  closed: boolean;
}

/** Whether `userId` sits, watches or holds an invitation at the table. */
export function isAt(rec: TableRecord, userId: string): boolean {
  return (
    seatOf(rec, userId) !== null ||
    rec.spectators.some((s) => s.userId === userId) ||
    (rec.invitations ?? []).some((i) => i.userId === userId)
  );
}

/**
 * Removes `userId` from the table. Before the start (or at the result): the seat is freed. In a running game the
 * leaver rules apply (a rated participant forfeits, `TableMachine.leave`) and a bot takes the seat at once — the
 * seat is not left open for the removed player. A watcher stops watching; an invitation is cancelled. The user
 * also loses the table's admission and cannot come back by the invite link (as a host's removal), and gets
 * `removed_from_table {gameId, reason}`. Throws NOT_AT_TABLE when the user is not there.
 */
export function evictBody(
  machine: TableMachine,
  rec: TableRecord,
  fx: Effects,
  userId: string,
  reason: string,
): Eviction {
  if (rec.status === 'CLOSED') throw new TableError(CONSOLE_TABLE_ERRORS.ALREADY_CLOSED, 400);
  if (!isAt(rec, userId)) throw new TableError(CONSOLE_TABLE_ERRORS.NOT_AT_TABLE, 404);
  const seat = seatOf(rec, userId);
  const running = inGame(rec);
  const watching = rec.spectators.some((s) => s.userId === userId);
  let botSeated = false;
  if (seat !== null || watching) machine.leave(rec, fx, userId, REMOVED_BY_STAFF);
  if (seat !== null && running && (rec.status as string) !== 'CLOSED' && rec.seats[seat] === null) {
    // the bot takes the seat now: no replacement countdown for a removed player's seat
    rec.seats[seat] = newBot(seat);
    rec.replacements[seat] = null;
    fx.notes = fx.notes.filter(
      (n) => !(n.type === 'seat_replacement_started' && (n as { seatIndex?: number }).seatIndex === seat),
    );
    machine.postSystem(rec, fx, `A bot was invited to seat ${seat + 1}.`);
    botSeated = true;
  }
  const invited = (rec.invitations ?? []).some((i) => i.userId === userId);
  rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
  rec.admitted = (rec.admitted ?? []).filter((u) => u !== userId);
  rec.removed = [...(rec.removed ?? []).filter((u) => u !== userId), userId];
  if (invited) fx.direct.push({ userId, event: 'game_invitation_cancelled', payload: { gameId: rec.id, reason } });
  fx.direct.push({ userId, event: 'removed_from_table', payload: { gameId: rec.id, reason } });
  fx.lobby = true;
  return {
    gameId: rec.id,
    seat,
    botSeated,
    forfeited: (rec.forfeited ?? []).includes(userId) && rec.rated,
    closed: (rec.status as string) === 'CLOSED',
  };
}

/** What closing changed, for the audit log. */
export interface Closing {
  gameId: string;
  statusBefore: string;
  rated: boolean;
  /** A rated game without a result: its escrow goes to the house in the settlement that follows. */
  escrowToHouse: boolean;
}

/**
 * Closes a (stuck) table: everybody at it gets `game_closed {reason: 'Closed by a moderator'}`; a rated game in
 * progress is settled as abandoned (escrow to the house, exactly once: games.settlement.ts), a finished one keeps
 * its payouts. `TableMachine.close` is the only way a table closes, here as everywhere.
 */
export function closeBody(machine: TableMachine, rec: TableRecord, fx: Effects): Closing {
  if (rec.status === 'CLOSED') throw new TableError(CONSOLE_TABLE_ERRORS.ALREADY_CLOSED, 400);
  const statusBefore = rec.status;
  const escrowToHouse = rec.rated && rec.settlement === 'none' && !rec.engine.result;
  machine.postSystem(rec, fx, `${CONSOLE_TABLE_CLOSED_REASON}.`);
  machine.close(rec, fx, CONSOLE_TABLE_CLOSED_REASON);
  return { gameId: rec.id, statusBefore, rated: rec.rated, escrowToHouse };
}
