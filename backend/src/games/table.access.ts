/**
 * Who may see a private table, its chat, its hand history, its replay and its place in a game list (issue #24,
 * ruling 15). One rule, the same for every status and every route (HTTP view, socket join, lobby lists, replays,
 * history lists):
 *
 * - a public table or game: everybody;
 * - an admin: always; a moderator too (issue #25: staff open any table from the console, as spectators —
 *   the spectator view holds no hand);
 * - a private table while open (WAITING, playing, COMPLETED result): its members (seated humans, spectators),
 *   admitted players, pending invitees and holders of the current invite token — unless the host removed them;
 * - a private table once CLOSED, and a finished private game: only the players who sat at it (the humans of its
 *   finished games, from `game_record_players`, plus the participants still on the closed record).
 *
 * `mayAccess` is pure; `TableAccess` gathers the database facts it needs (the admin role, the players of finished
 * games) only when the pure part has not already allowed the viewer, so public tables cost no query.
 */
import { Injectable } from '@nestjs/common';
import { WireError, type WireErrorCode } from '@spades/common';
import { DataSource } from 'typeorm';
import { UsersService } from '../users/users.service';
import { isHuman, TableError, TableRecord } from './table.record';
import { invitationFor, isMember, isPrivate, isRemoved, tokenMatches } from './visibility';

/** The refusals of the access rule (HTTP 403 `{ message, code }` / socket `{ ok:false, message, code }`). */
export const ACCESS_ERRORS = {
  /** A private table that is open: the viewer needs an invitation. */
  PRIVATE_TABLE: 'This table is private: you need an invitation',
  /** A private game that has ended: only its players (and admins, and share-link holders for its replay). */
  PRIVATE_GAME: 'This game is private: only its players can see it',
  /** The host removed the user from the table; a new in-app invitation from the host lifts it. */
  REMOVED: 'The host removed you from this table',
} as const;

/** The typed code each refusal carries (the client reacts to it, never to the text). */
const ACCESS_CODES: Readonly<Record<keyof typeof ACCESS_ERRORS, WireErrorCode>> = {
  PRIVATE_TABLE: WireError.PRIVATE_TABLE,
  PRIVATE_GAME: WireError.PRIVATE_GAME,
  REMOVED: WireError.REMOVED_FROM_TABLE,
};

/** The refusal `kind` of the access rule: HTTP 403 with its text and code. */
export function accessRefusal(kind: keyof typeof ACCESS_ERRORS): TableError {
  return new TableError(ACCESS_ERRORS[kind], 403, ACCESS_CODES[kind]);
}

/** Who is asking. `invite`: the invite token offered with the request, if any. */
export interface Viewer {
  userId: string | null;
  admin?: boolean;
  /** A moderator or an admin (issue #25): sees any table and game, like an admin. */
  staff?: boolean;
  invite?: unknown;
}

/**
 * What is asked for: an open table (its live record), or a table/game after it ended (`players`: who sat at it).
 */
export type AccessSubject =
  { kind: 'open'; rec: TableRecord } | { kind: 'ended'; private: boolean; players: ReadonlySet<string> };

/** The subject of a table record: open while not CLOSED; a CLOSED record with the players who sat at it. */
export function subjectOf(rec: TableRecord, finishedPlayers: Iterable<string> = []): AccessSubject {
  if (rec.status !== 'CLOSED') return { kind: 'open', rec };
  return { kind: 'ended', private: rec.private === true, players: playersOfClosed(rec, finishedPlayers) };
}

/** The humans who sat at a closed table: its finished games' players, its last participants, whoever is still seated. */
export function playersOfClosed(rec: TableRecord, finishedPlayers: Iterable<string>): Set<string> {
  const out = new Set(finishedPlayers);
  for (const p of rec.participants) out.add(p.userId);
  for (const s of rec.seats) if (isHuman(s)) out.add(s.userId);
  return out;
}

/** THE rule. */
export function mayAccess(subject: AccessSubject, viewer: Viewer): boolean {
  if (subject.kind === 'open' ? subject.rec.private !== true : !subject.private) return true;
  if (viewer.admin === true || viewer.staff === true) return true;
  const userId = viewer.userId;
  if (userId === null) return false;
  if (subject.kind === 'ended') return subject.players.has(userId);
  const rec = subject.rec;
  if (isMember(rec, userId) || invitationFor(rec, userId) !== null) return true;
  if (isRemoved(rec, userId)) return false;
  return (rec.admitted ?? []).includes(userId) || tokenMatches(rec, viewer.invite);
}

/** The refusal for a viewer `mayAccess` turned down. */
export function refusalOf(subject: AccessSubject, viewer: Viewer): TableError {
  if (subject.kind === 'ended') return accessRefusal('PRIVATE_GAME');
  if (viewer.userId !== null && isRemoved(subject.rec, viewer.userId)) return accessRefusal('REMOVED');
  return accessRefusal('PRIVATE_TABLE');
}

/** Throws the refusal unless `viewer` may enter/see the open table (pure: for command bodies inside a table's queue). */
export function assertOpenAccess(rec: TableRecord, viewer: Viewer): void {
  const subject: AccessSubject = { kind: 'open', rec };
  if (!mayAccess(subject, viewer)) throw refusalOf(subject, viewer);
}

/** The database facts of the rule: the admin role and the players of finished games. */
@Injectable()
export class TableAccess {
  constructor(
    private readonly users: UsersService,
    private readonly ds: DataSource,
  ) {}

  isAdmin(userId: string | null): Promise<boolean> {
    return userId === null ? Promise.resolve(false) : this.users.isAdmin(userId);
  }

  /** A moderator or an admin (issue #25). */
  async isStaff(userId: string | null): Promise<boolean> {
    return userId !== null && (await this.users.roleOf(userId)) !== 'user';
  }

  /** The humans of the table's finished games (every game number), or of one game. */
  async players(gameId: string, gameNumber?: number): Promise<Set<string>> {
    const rows: { user_id: string }[] =
      gameNumber === undefined
        ? await this.ds.query(`SELECT DISTINCT user_id FROM game_record_players WHERE game_id = $1`, [gameId])
        : await this.ds.query(`SELECT user_id FROM game_record_players WHERE game_id = $1 AND game_number = $2`, [
            gameId,
            gameNumber,
          ]);
    return new Set(rows.map((r) => r.user_id));
  }

  /**
   * The viewer with the admin role resolved only when the table's record alone would refuse them: read before a
   * command is queued, so a refused caller's query never holds up the table's queue.
   */
  async viewerFor(rec: TableRecord, userId: string, invite?: unknown): Promise<Viewer> {
    const viewer: Viewer = { userId, invite };
    if (mayAccess(subjectOf(rec), viewer)) return viewer;
    return { ...viewer, staff: await this.isStaff(userId) };
  }

  /** Throws the refusal unless `viewer` may see the table (open or closed). Queries only when the record alone does not allow. */
  async assertTable(rec: TableRecord, viewer: Viewer): Promise<void> {
    const quick = subjectOf(rec);
    if (mayAccess(quick, viewer)) return;
    const staff = await this.isStaff(viewer.userId);
    const subject = rec.status === 'CLOSED' ? subjectOf(rec, await this.players(rec.id)) : quick;
    if (!mayAccess(subject, { ...viewer, staff })) throw refusalOf(subject, viewer);
  }

  /** Whether `viewer` may see a finished game (replay, history item); `players`: who sat at it. */
  async mayAccessGame(priv: boolean, players: ReadonlySet<string>, viewer: Viewer): Promise<boolean> {
    const subject: AccessSubject = { kind: 'ended', private: priv, players };
    if (mayAccess(subject, viewer)) return true;
    return mayAccess(subject, { ...viewer, staff: await this.isStaff(viewer.userId) });
  }
}

// ------------------------------------------------------------------ the rule applied to the lobby and to entering

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

/** Whether the user may enter (sit or watch) the table, optionally with an offered invite token (the access rule). */
export function mayEnter(rec: TableRecord, userId: string, token?: unknown): boolean {
  return mayAccess({ kind: 'open', rec }, { userId, invite: token });
}
