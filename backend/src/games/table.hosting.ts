/**
 * What players do to the table's company (part of the table machine, table.ts): in-app invitations and held seats
 * (issue #12), the invite link, the host removing a player (issue #24), and inviting or removing bots. Pure, no
 * I/O. Split from table.ts (issue #29).
 */
import type { Seat } from '@spades/common';
import { ACCESS_ERRORS } from './table.access';
import { newBot } from './table.new';
import {
  type Effects,
  type Participant,
  type PendingInvitation,
  type SeatOccupant,
  type TableRecord,
  hostId,
  inGame,
  invitationPayload,
  isHuman,
  SEAT_RESERVED,
  SEATS,
  seatOf,
  TableError,
} from './table.record';
import { TableSeating } from './table.seating';
import { TOURNAMENT_TABLE_ERRORS } from './tournament-tables';
import { invitationFor, reservedSeats } from './visibility';

/** Invitations, removals and bot seats. */
export abstract class TableHosting extends TableSeating {
  /**
   * A seated human invites another user (in-app invitation, `game_invitation` to the invitee). With `reserve`
   * at a WAITING table, a free seat is held for the invitee for INVITE_RESERVATION_MS. A new invitation of the
   * same user replaces the old one.
   */
  invite(rec: TableRecord, fx: Effects, from: Participant, to: Participant, reserve: boolean): PendingInvitation {
    if (seatOf(rec, from.userId) === null) throw new TableError('Only seated players can invite', 403);
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (rec.status === 'COMPLETED') throw new TableError('This game is over');
    if (to.userId === from.userId) throw new TableError('You cannot invite yourself');
    if (seatOf(rec, to.userId) !== null) throw new TableError(`${to.username} is already seated at this table`);
    const now = this.now();
    let seat: Seat | null = null;
    if (reserve && rec.status === 'WAITING' && !rec.tournament) {
      const held = reservedSeats(rec, now);
      const mine = invitationFor(rec, to.userId);
      const free = SEATS.filter((i) => rec.seats[i] === null && (!held.has(i) || held.get(i) === to.userId));
      seat =
        mine?.seat !== null && mine?.seat !== undefined && free.includes(mine.seat) ? mine.seat : (free[0] ?? null);
      if (seat === null) throw new TableError('No free seat to reserve');
    }
    const inv: PendingInvitation = {
      userId: to.userId,
      username: to.username,
      fromId: from.userId,
      fromName: from.username,
      fromAvatar: from.avatar,
      createdAt: now,
      seat,
      reservedUntil: seat === null ? null : now + this.cfg.inviteReservationMs,
    };
    rec.invitations = [...(rec.invitations ?? []).filter((i) => i.userId !== to.userId), inv];
    if (rec.removed?.includes(to.userId)) rec.removed = rec.removed.filter((u) => u !== to.userId);
    fx.direct.push({ userId: to.userId, event: 'game_invitation', payload: invitationPayload(rec, inv) });
    fx.lobby = true;
    this.postSystem(
      rec,
      fx,
      seat === null
        ? `${from.username} invited ${to.username}.`
        : `${from.username} invited ${to.username} and holds seat ${seat + 1}.`,
    );
    return inv;
  }

  /**
   * Host only, before the start (issue #24): `userId` loses their seat or spectator place, pending invitation and
   * admission, and cannot come back with the invite link until the host invites them again in the app.
   */
  removePlayer(rec: TableRecord, fx: Effects, hostUserId: string, userId: string): void {
    if (rec.tournament) throw new TableError(TOURNAMENT_TABLE_ERRORS.SEATS_FIXED, 403);
    if (hostId(rec) !== hostUserId || seatOf(rec, hostUserId) === null)
      throw new TableError('Only the host can remove a player', 403);
    if (rec.status !== 'WAITING') throw new TableError('Players can be removed only before the game starts');
    if (userId === hostUserId) throw new TableError('You cannot remove yourself: leave the table instead');
    const seat = seatOf(rec, userId);
    const watcher = rec.spectators.find((s) => s.userId === userId);
    const inv = invitationFor(rec, userId);
    const admitted = (rec.admitted ?? []).includes(userId);
    if (seat === null && !watcher && !inv && !admitted) throw new TableError('This player is not at this table', 404);
    const name =
      seat !== null ? (rec.seats[seat] as SeatOccupant).username : (watcher?.username ?? inv?.username ?? 'A player');
    if (seat !== null) rec.seats[seat] = null;
    rec.spectators = rec.spectators.filter((s) => s.userId !== userId);
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    rec.admitted = (rec.admitted ?? []).filter((u) => u !== userId);
    rec.removed = [...(rec.removed ?? []).filter((u) => u !== userId), userId];
    rec.playAgain = rec.playAgain.filter((u) => u !== userId);
    rec.handAcks = rec.handAcks.filter((u) => u !== userId);
    if (inv)
      fx.direct.push({
        userId,
        event: 'game_invitation_cancelled',
        payload: { gameId: rec.id, reason: ACCESS_ERRORS.REMOVED },
      });
    fx.direct.push({ userId, event: 'removed_from_table', payload: { gameId: rec.id, reason: ACCESS_ERRORS.REMOVED } });
    if (seat !== null || watcher) fx.removedUsers.push(userId);
    fx.lobby = true;
    this.postSystem(rec, fx, `${name} was removed from the table by the host.`);
  }

  /** The invitee declines: the invitation (and a held seat) is dropped; the inviter is told. */
  decline(rec: TableRecord, fx: Effects, userId: string): void {
    const inv = invitationFor(rec, userId);
    if (!inv) throw new TableError('No invitation to this table', 404);
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    fx.direct.push({
      userId: inv.fromId,
      event: 'invitation_declined',
      payload: { gameId: rec.id, userId, username: inv.username },
    });
    fx.lobby = true;
    this.postSystem(rec, fx, `${inv.username} declined the invitation.`);
  }

  /** Host only: a new invite token (the previous link stops working) or none (revoke). */
  setInviteToken(rec: TableRecord, requesterId: string, token: string | null): void {
    if (hostId(rec) !== requesterId) throw new TableError('Only the host can manage the invite link', 403);
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    rec.inviteToken = token;
  }

  // ------------------------------------------------------------------ bots

  /**
   * Bot invite/removal. WAITING: the host only. Running game (spec §5): the human seated opposite the seat,
   * or the host when the opposite seat holds no human.
   */
  protected checkBotAuthority(rec: TableRecord, requesterId: string, seat: number, midgame: boolean): void {
    if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new TableError('Invalid seat');
    if (seatOf(rec, requesterId) === null) throw new TableError('Only seated players can do that', 403);
    if (!midgame) {
      if (rec.tournament) throw new TableError(TOURNAMENT_TABLE_ERRORS.SEATS_FIXED, 403);
      if (rec.status !== 'WAITING') throw new TableError('The game has already started');
      if (hostId(rec) !== requesterId) throw new TableError('Only the host can do that', 403);
      return;
    }
    if (!inGame(rec)) throw new TableError('The game is not in progress');
    const opposite = rec.seats[(seat + 2) % 4];
    const allowed = isHuman(opposite) ? opposite.userId : hostId(rec);
    if (allowed !== requesterId) {
      throw new TableError(
        isHuman(opposite) ? 'Only the player opposite that seat can do that' : 'Only the host can do that',
        403,
      );
    }
  }

  inviteBot(rec: TableRecord, fx: Effects, requesterId: string, seat: number, midgame: boolean): void {
    this.checkBotAuthority(rec, requesterId, seat, midgame);
    if (rec.seats[seat] !== null) throw new TableError('That seat is taken');
    if (reservedSeats(rec, this.now()).has(seat)) throw new TableError(SEAT_RESERVED);
    rec.seats[seat] = newBot(seat);
    rec.replacements[seat] = null;
    rec.timeouts[seat] = 0;
    fx.lobby = true;
    this.postSystem(rec, fx, `A bot was invited to seat ${seat + 1}.`);
  }

  removeBot(rec: TableRecord, fx: Effects, requesterId: string, seat: number, midgame: boolean): void {
    this.checkBotAuthority(rec, requesterId, seat, midgame);
    if (rec.seats[seat]?.kind !== 'bot') throw new TableError('There is no bot in that seat');
    fx.lobby = true;
    if (midgame) this.vacate(rec, fx, seat as Seat);
    else rec.seats[seat] = null;
    this.postSystem(rec, fx, `A bot was removed from seat ${seat + 1}.`);
  }
}
