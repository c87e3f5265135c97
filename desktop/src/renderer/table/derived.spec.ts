/** What the table page shows, derived from the model: pure functions, no React, time injected. */
import { describe, expect, it } from 'vitest';
import { normalizeTable, type SeatModel, type TableModel } from './model';
import {
  biddingType,
  displayedTrick,
  handKey,
  heldFor,
  hostSeatOf,
  isForTable,
  isHostOf,
  mayRemoveBot,
  playAgainText,
  replacementSecondsLeft,
  startWarningOf,
  tablePeople,
} from './derived';
import { c, tableView } from '../test/table-harness';

const base = (over: Record<string, unknown> = {}): TableModel =>
  normalizeTable({ ...tableView(over), serverTime: 1_000 }, 'u0')!;
const bot = (seat: SeatModel | null): SeatModel | null => (seat ? { ...seat, type: 'bot' } : null);

describe('table derived', () => {
  it('hand key: number and commitment; a payload is for the table that it names or when it names none', () => {
    expect(handKey(3, 'abc')).toBe('3:abc');
    expect(handKey(3, null)).toBe('3:');
    expect(isForTable({ gameId: 'g1' }, 'g1')).toBe(true);
    expect(isForTable({ id: 'g1' }, 'g1')).toBe(true);
    expect(isForTable({ gameId: 'g2' }, 'g1')).toBe(false);
    expect(isForTable({ message: 'x' }, 'g1')).toBe(true);
    expect(isForTable('text', 'g1')).toBe(true);
  });

  it('the host is the server hostId; seat 0 only when none is sent', () => {
    const t = base({ hostId: 'u2' });
    expect(hostSeatOf(t)?.id).toBe('u2');
    expect(isHostOf(t, 'u2')).toBe(true);
    expect(isHostOf(t, 'u0')).toBe(false);
    expect(isHostOf(t, undefined)).toBe(false);
    const none = { ...t, hostId: null };
    expect(hostSeatOf(none)?.id).toBe('u0');
    expect(isHostOf(none, 'u0')).toBe(true);
  });

  it('a seat held for an invited player shows their name to others until the reservation ends', () => {
    const t = base();
    const held: TableModel = {
      ...t,
      seats: [t.seats[0], null, t.seats[2], t.seats[3]],
      invitations: [{ userId: 'u9', username: 'Nine', seatIndex: 1, reservedUntil: 10_000 }],
      clockOffset: 0,
    };
    expect(heldFor(held, 1, 'u0', 5_000)).toBe('Nine');
    expect(heldFor(held, 1, 'u9', 5_000)).toBeNull();
    expect(heldFor(held, 1, 'u0', 10_000)).toBeNull();
    expect(heldFor(held, 2, 'u0', 5_000)).toBeNull();
  });

  it('removing a bot: host before the start, the human partner during the game, nobody after', () => {
    const t = base();
    const seats = [t.seats[0], bot(t.seats[1]), bot(t.seats[2]), t.seats[3]];
    const waiting: TableModel = { ...t, status: 'WAITING', seats };
    expect(mayRemoveBot(waiting, 1, 'u0', true)).toBe(true);
    expect(mayRemoveBot(waiting, 1, 'u3', false)).toBe(false);
    expect(mayRemoveBot(waiting, 0, 'u0', true)).toBe(false);
    const playing: TableModel = { ...t, status: 'PLAYING', seats };
    // seat 2's partner is seat 0 (a human): only that player
    expect(mayRemoveBot(playing, 2, 'u0', false)).toBe(true);
    expect(mayRemoveBot(playing, 2, 'u3', true)).toBe(false);
    // seat 1's partner is seat 3 (a human)
    expect(mayRemoveBot(playing, 1, 'u3', false)).toBe(true);
    const bothBots: TableModel = { ...playing, seats: [t.seats[0], bot(t.seats[1]), t.seats[2], bot(t.seats[3])] };
    expect(mayRemoveBot(bothBots, 1, 'u0', true)).toBe(true);
    expect(mayRemoveBot(bothBots, 1, 'u2', false)).toBe(false);
    expect(mayRemoveBot({ ...playing, status: 'COMPLETED' }, 2, 'u0', true)).toBe(false);
    expect(mayRemoveBot(playing, 2, undefined, true)).toBe(false);
  });

  it('the trick on the felt: the banner, else the last trick while pending, else the current one', () => {
    const t = base({ status: 'PLAYING' });
    const cur: TableModel = { ...t, trick: [{ seat: 0, card: c('H', 2) }] };
    expect(displayedTrick(cur, null)).toEqual({ cards: cur.trick, winner: null });
    const last = { winnerIndex: 3, cards: [{ seat: 3 as const, card: c('S', 14) }] };
    const pending: TableModel = { ...cur, trickPending: true, lastTrick: last };
    expect(displayedTrick(pending, null)).toEqual({ cards: last.cards, winner: 3 });
    const banner = { winner: 1, cards: [{ seat: 1 as const, card: c('D', 9) }] };
    expect(displayedTrick(pending, banner)).toEqual({ cards: banner.cards, winner: 1 });
  });

  it('people: the seated in seat order, then the spectators', () => {
    const t = base();
    const people = tablePeople({
      ...t,
      seats: [t.seats[0], null, bot(t.seats[2]), t.seats[3]],
      spectators: [{ id: 'w1', username: 'Watcher', avatar: null }],
    });
    expect(people.map((p) => [p.key, p.seat, p.bot, p.spectator])).toEqual([
      ['s0', 0, false, false],
      ['s2', 2, true, false],
      ['s3', 3, false, false],
      ['spw1', -1, false, true],
    ]);
  });

  it('start warning: empty seats first, then bots, else none; play-again text by the humans seated', () => {
    const t = base();
    expect(startWarningOf(t)).toBeNull();
    expect(startWarningOf({ ...t, seats: [t.seats[0], null, null, bot(t.seats[3])] })).toEqual({
      kind: 'empty',
      empty: 2,
    });
    expect(startWarningOf({ ...t, seats: [t.seats[0], bot(t.seats[1]), t.seats[2], t.seats[3]] })).toEqual({
      kind: 'bots',
      bots: 1,
    });
    expect(playAgainText(t)).toBe('Waiting for other players...');
    expect(playAgainText({ ...t, seats: [t.seats[0], bot(t.seats[1]), null, bot(t.seats[3])] })).toBe(
      'Starting new game...',
    );
  });

  it('bidding type and replacement countdowns', () => {
    const t = base();
    expect(biddingType(t)).toBe('REGULAR');
    expect(biddingType({ ...t, settings: { ...t.settings, biddingOption: 'WHIZ' } })).toBe('WHIZ');
    const empty: TableModel = { ...t, seats: [t.seats[0], null, t.seats[2], t.seats[3]] };
    expect(replacementSecondsLeft(empty, { 1: 10_500 }, 1, 1_000)).toBe(10);
    expect(replacementSecondsLeft(empty, { 1: 500 }, 1, 1_000)).toBe(0);
    expect(replacementSecondsLeft(empty, {}, 1, 1_000)).toBeNull();
    expect(replacementSecondsLeft(empty, { 2: 10_500 }, 2, 1_000)).toBeNull();
  });
});
