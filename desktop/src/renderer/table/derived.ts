/**
 * What the table page shows, derived from the client's `TableModel` (model.ts) and the live state
 * (table-state.ts): who hosts, which seats may be joined or cleared, the trick on display, the people list, the
 * start warning. Pure functions: no React, no clock (the time comes in as `now`), tested in derived.spec.ts.
 */
import type { LiveTableState } from './table-state';
import type { SeatModel, TableModel } from './model';

/** One hand of one game: its number plus its deal commitment (hand numbers restart with every game). */
export const handKey = (handNumber: number, commitment: string | null | undefined): string =>
  `${handNumber}:${commitment ?? ''}`;

/** A socket payload is for this table when it names it (`gameId` or `id`) or names no table at all. */
export function isForTable(payload: unknown, gameId: string): boolean {
  const p = payload && typeof payload === 'object' ? (payload as { gameId?: unknown; id?: unknown }) : undefined;
  const id = p ? (p.gameId ?? p.id) : undefined;
  return id === undefined || String(id) === gameId;
}

/** The host's seat: the server's hostId (the seat 0 holder by the rules); seat 0 only when the server sends none. */
export function hostSeatOf(t: TableModel): SeatModel | null {
  return t.hostId ? (t.seats.find((s) => s?.id === t.hostId) ?? null) : t.seats[0];
}

export function isHostOf(t: TableModel, userId: string | undefined): boolean {
  if (!userId) return false;
  return t.hostId ? t.hostId === userId : hostSeatOf(t)?.id === userId;
}

/** Issue #12: an empty seat held for an invited player other than `selfId` (their name), else null. */
export function heldFor(t: TableModel, seat: number, selfId: string | undefined, now: number): string | null {
  const inv = (t.invitations ?? []).find(
    (i) => i.seatIndex === seat && i.reservedUntil !== null && i.reservedUntil - t.clockOffset > now,
  );
  return inv && inv.userId !== selfId && !t.seats[seat] ? inv.username : null;
}

/**
 * Who may take a bot out of a seat: the host before the start; during the game the bot's human partner (the
 * player opposite), or the host when the partner is a bot too; nobody after the game.
 */
export function mayRemoveBot(t: TableModel, seat: number, selfId: string | undefined, isHost: boolean): boolean {
  const s = t.seats[seat];
  if (!selfId || !s || s.type !== 'bot') return false;
  if (t.status === 'WAITING') return isHost;
  if (t.status === 'COMPLETED') return false;
  const opp = t.seats[(seat + 2) % 4];
  return opp && opp.type === 'human' ? opp.id === selfId : isHost;
}

/** The trick on the felt: the completed one on display, the last one while the server holds it, else the current. */
export function displayedTrick(
  t: TableModel,
  banner: LiveTableState['trickBanner'],
): { cards: TableModel['trick']; winner: number | null } {
  if (banner) return { cards: banner.cards, winner: banner.winner };
  if (t.trickPending && t.lastTrick) return { cards: t.lastTrick.cards, winner: t.lastTrick.winnerIndex };
  return { cards: t.trick, winner: null };
}

export interface TablePerson {
  key: string;
  id: string;
  username: string;
  avatar: string | null;
  /** The seat, or -1 for a spectator. */
  seat: number;
  bot: boolean;
  spectator: boolean;
}

/** The Players tab: the seated players in seat order, then the spectators. */
export function tablePeople(t: TableModel): TablePerson[] {
  const seated: TablePerson[] = [];
  t.seats.forEach((s, i) => {
    if (s)
      seated.push({
        key: `s${i}`,
        id: s.id,
        username: s.username,
        avatar: s.avatar,
        seat: i,
        bot: s.type === 'bot',
        spectator: false,
      });
  });
  const watching = t.spectators.map((s) => ({
    key: `sp${s.id}`,
    id: s.id,
    username: s.username,
    avatar: s.avatar,
    seat: -1,
    bot: false,
    spectator: true,
  }));
  return [...seated, ...watching];
}

export type StartWarning = { kind: 'empty'; empty: number } | { kind: 'bots'; bots: number } | null;

/** Before the host starts: empty seats (bots will fill them, unrated) or bots already seated (unrated), else none. */
export function startWarningOf(t: TableModel): StartWarning {
  const empty = t.seats.filter((s) => !s).length;
  const bots = t.seats.filter((s) => s?.type === 'bot').length;
  if (empty > 0) return { kind: 'empty', empty };
  if (bots > 0) return { kind: 'bots', bots };
  return null;
}

/** The bidding variant for the mode badge. */
export function biddingType(t: TableModel): 'WHIZ' | 'MIRROR' | 'REGULAR' {
  const b = t.settings.biddingOption;
  return b === 'WHIZ' ? 'WHIZ' : b === 'MIRROR' ? 'MIRROR' : 'REGULAR';
}

/** The text the result dialog shows after Play Again until the new game is dealt. */
export function playAgainText(t: TableModel): string {
  const humans = t.seats.filter((s) => s?.type === 'human').length;
  return humans > 1 ? 'Waiting for other players...' : 'Starting new game...';
}

/** Seconds left on a seat-replacement countdown for an empty seat, or null. */
export function replacementSecondsLeft(
  t: TableModel,
  replacements: LiveTableState['replacements'],
  seat: number,
  now: number,
): number | null {
  const until = replacements[seat];
  return !t.seats[seat] && until ? Math.max(0, Math.ceil((until - now) / 1000)) : null;
}
