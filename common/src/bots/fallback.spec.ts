/**
 * The bots' safety net (first legal action when the bot's own choice is illegal) is observable: counted,
 * reported to listeners, and thrown in strict mode. The bots' internals are mocked to make a bad choice.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apply, createGame, DEFAULT_SETTINGS, GameState, legalBids, legalCards, Seat, viewFor } from '../rules';
import { fromCard } from '../fast/hand';
import { BotFallbackError, BotFallbackEvent, botFallbackCount, onBotFallback, setBotFallbackStrict } from './fallback';
import { heuristicBot } from './heuristic';
import { createStrongBot } from './strong';
import { basicBot } from './basic';
import { mulberry32 } from './prng';

const bad = vi.hoisted(() => ({ card: null as number | null, bid: null as number | null }));

vi.mock('./heuristic/play', async (importOriginal) => {
  const real = await importOriginal<typeof import('./heuristic/play')>();
  return {
    ...real,
    heuristicCard: (...a: Parameters<typeof real.heuristicCard>) => bad.card ?? real.heuristicCard(...a),
  };
});
vi.mock('./strong/bidding', async (importOriginal) => {
  const real = await importOriginal<typeof import('./strong/bidding')>();
  return { ...real, strongBid: (...a: Parameters<typeof real.strongBid>) => bad.bid ?? real.strongBid(...a) };
});

const strong = createStrongBot({ maxMs: 1e9, maxSamples: 4, minSamples: 4 });

function bidding(): GameState {
  const r = apply(createGame(DEFAULT_SETTINGS), { type: 'deal', seed: '11'.repeat(32) });
  if (!r.ok) throw new Error(r.error);
  return r.state;
}

/** The first PLAYING state of the deal (basic bots bid) whose seat to play has several legal cards. */
function playing(): GameState {
  let s = bidding();
  while (s.phase === 'BIDDING') {
    const a = basicBot.act(viewFor(s, s.turn as Seat), Math.random);
    const r = apply(s, a!);
    if (!r.ok) throw new Error(r.error);
    s = r.state;
  }
  expect(legalCards(viewFor(s, s.turn as Seat)).length).toBeGreaterThan(1);
  return s;
}

afterEach(() => {
  bad.card = null;
  bad.bid = null;
  setBotFallbackStrict(false);
});

describe('bot fallback is observable', () => {
  it('heuristic: an illegal card falls back to the first legal one, counted and reported; strict mode throws', () => {
    const s = playing();
    const seat = s.turn as Seat;
    const view = viewFor(s, seat);
    const other = ((seat + 1) % 4) as Seat;
    bad.card = fromCard(s.hands[other][0]); // a card the seat does not even hold
    const events: BotFallbackEvent[] = [];
    const off = onBotFallback((e) => events.push(e));
    const before = botFallbackCount();
    const a = heuristicBot.act(view, mulberry32(1));
    expect(a).toEqual({ type: 'play', seat, card: legalCards(view)[0] });
    expect(botFallbackCount()).toBe(before + 1);
    expect(events).toEqual([{ bot: 'heuristic', kind: 'card', chosen: bad.card, used: legalCards(view)[0] }]);
    off();
    setBotFallbackStrict(true);
    expect(() => heuristicBot.act(view, mulberry32(1))).toThrow(BotFallbackError);
    expect(events).toHaveLength(1); // unsubscribed
    expect(botFallbackCount()).toBe(before + 2);
  });

  it('heuristic: a legal choice is not a fallback', () => {
    const s = playing();
    setBotFallbackStrict(true);
    const before = botFallbackCount();
    const a = heuristicBot.act(viewFor(s, s.turn as Seat), mulberry32(1));
    expect(a?.type).toBe('play');
    expect(botFallbackCount()).toBe(before);
  });

  it('strong: an illegal bid falls back to the first legal bid, counted; strict mode throws', () => {
    const s = bidding();
    const seat = s.turn as Seat;
    const view = viewFor(s, seat);
    bad.bid = 14;
    const before = botFallbackCount();
    expect(strong.act(view, mulberry32(2))).toEqual({ type: 'bid', seat, bid: legalBids(view).bids[0] });
    expect(botFallbackCount()).toBe(before + 1);
    setBotFallbackStrict(true);
    expect(() => strong.act(view, mulberry32(2))).toThrow(/strong chose an illegal bid 14/);
  });

  it('a throwing listener does not break the decision', () => {
    const s = bidding();
    bad.bid = -3;
    const off = onBotFallback(() => {
      throw new Error('listener bug');
    });
    const view = viewFor(s, s.turn as Seat);
    expect(strong.act(view, mulberry32(3))).toEqual({ type: 'bid', seat: s.turn, bid: legalBids(view).bids[0] });
    off();
  });
});
