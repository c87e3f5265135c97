/**
 * Private tables and invitations (issue #12): who may see a table in the lobby and who may enter it. Pure
 * functions over the TableRecord, shared by the lobby list (`GET /api/games`), the `games_updated` fan-out and
 * every way into a table (HTTP join/spectate/view, socket join_game).
 *
 * Both follow the access rule of table.access.ts (issue #24): a private table is listed for its members (seated
 * humans, spectators), pending invitees and admitted players; entering it (sit or watch) needs one of those or the
 * table's current invite token. A user the host removed needs a new in-app invitation.
 */
import { timingSafeEqual } from 'node:crypto';
import { isSpectator, PendingInvitation, seatOf, TableRecord } from './table.record';

export function isPrivate(rec: TableRecord): boolean {
  return rec.private === true;
}

/** Seated human or spectator. */
export function isMember(rec: TableRecord, userId: string): boolean {
  return seatOf(rec, userId) !== null || isSpectator(rec, userId);
}

export function invitationFor(rec: TableRecord, userId: string): PendingInvitation | null {
  return (rec.invitations ?? []).find((i) => i.userId === userId) ?? null;
}

/** Constant-time comparison of an offered invite token with the table's current one (revoked: none matches). */
export function tokenMatches(rec: TableRecord, offered: unknown): boolean {
  const current = rec.inviteToken;
  if (!current || typeof offered !== 'string' || offered.length !== current.length) return false;
  return timingSafeEqual(Buffer.from(offered), Buffer.from(current));
}

/** Seats held for invitees at `now` (WAITING tables only): seat → the invitee's userId. */
export function reservedSeats(rec: TableRecord, now: number): Map<number, string> {
  const out = new Map<number, string>();
  if (rec.status !== 'WAITING') return out;
  for (const i of rec.invitations ?? []) {
    if (i.seat !== null && i.reservedUntil !== null && i.reservedUntil > now && rec.seats[i.seat] === null)
      out.set(i.seat, i.userId);
  }
  return out;
}

/** Whether the host removed the user (and has not invited them again since). */
export function isRemoved(rec: TableRecord, userId: string): boolean {
  return (rec.removed ?? []).includes(userId);
}
