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
import { isSpectator, PendingInvitation, seatOf, TableRecord } from './table';
import { isRemoved, mayAccess } from './table.access';

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

/**
 * The lobby rule = the access rule (table.access.ts) without an invite token: public tables for everybody, a
 * private table for its members, invitees and admitted players (not for admins: the lobby lists tables to join,
 * and its live deltas go to the audience below).
 */
export function canSeeInLobby(rec: TableRecord, userId: string | null): boolean {
  return mayAccess({ kind: 'open', rec }, { userId });
}

/** Users for whom a private table is listed (the per-user `games_updated` fan-out). */
export function lobbyAudience(rec: TableRecord): string[] {
  if (!isPrivate(rec)) return [];
  const ids = new Set<string>();
  for (const s of rec.seats) if (s && s.kind === 'human') ids.add(s.userId);
  for (const s of rec.spectators) ids.add(s.userId);
  for (const i of rec.invitations ?? []) ids.add(i.userId);
  for (const u of rec.admitted ?? []) if (!isRemoved(rec, u)) ids.add(u);
  return [...ids];
}

/** Constant-time comparison of an offered invite token with the table's current one (revoked: none matches). */
export function tokenMatches(rec: TableRecord, offered: unknown): boolean {
  const current = rec.inviteToken;
  if (!current || typeof offered !== 'string' || offered.length !== current.length) return false;
  return timingSafeEqual(Buffer.from(offered), Buffer.from(current));
}

/** Whether the user may enter (sit or watch) the table, optionally with an offered invite token (the access rule). */
export function mayEnter(rec: TableRecord, userId: string, token?: unknown): boolean {
  return mayAccess({ kind: 'open', rec }, { userId, invite: token });
}

/** Seats held for invitees at `now` (WAITING tables only): seat → the invitee's userId. */
export function reservedSeats(rec: TableRecord, now: number): Map<number, string> {
  const out = new Map<number, string>();
  if (rec.status !== 'WAITING') return out;
  for (const i of rec.invitations ?? []) {
    if (i.seat !== null && i.reservedUntil !== null && i.reservedUntil > now && rec.seats[i.seat] === null) out.set(i.seat, i.userId);
  }
  return out;
}
