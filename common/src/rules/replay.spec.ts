import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { basicBot, mulberry32, randomSeed } from '../bots';
import { toHex } from './sha256';
import { Seat } from './deal';
import { apply, createGame, GameAction } from './engine';
import { DEFAULT_SETTINGS, GameSettings } from './settings';
import { GameState } from './state';
import { viewFor } from './view';
import { runReplay, verifyDeal } from './replay';

/** A complete game played by basic bots; returns every action in order and the final state. */
function playLogged(settings: GameSettings, seed: number): { actions: GameAction[]; final: GameState } {
  const rng = mulberry32(seed);
  let s = createGame(settings);
  const actions: GameAction[] = [];
  const step = (a: GameAction) => {
    const r = apply(s, a);
    if (!r.ok) throw new Error(r.error);
    actions.push(a);
    s = r.state;
  };
  while (s.phase !== 'COMPLETED') {
    if (s.phase === 'WAITING' || s.phase === 'HAND_COMPLETED') step({ type: 'deal', seed: toHex(randomSeed(rng)) });
    else step(basicBot.act(viewFor(s, s.turn as Seat), rng)!);
  }
  return { actions, final: s };
}

const SETTINGS: GameSettings = {
  ...DEFAULT_SETTINGS,
  maxPoints: 200,
  specialRules: { ...DEFAULT_SETTINGS.specialRules, allowBlindNil: true },
};

describe('runReplay', () => {
  it('rebuilds every state and ends at the final state; hands, bids and tricks match the records', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom<GameSettings>(SETTINGS, { ...SETTINGS, gameMode: 'SOLO' }),
        (seed, settings) => {
          const { actions, final } = playLogged(settings, seed);
          const run = runReplay(settings, JSON.parse(JSON.stringify(actions)));
          expect(run.final).toEqual(final);
          expect(run.states).toHaveLength(actions.length + 1);
          expect(run.hands).toHaveLength(final.history.length);
          run.hands.forEach((h, i) => {
            const rec = final.history[i];
            expect(h.score).toEqual(rec);
            expect(h.seed).toBe(rec.seed);
            expect(h.bids).toHaveLength(4);
            expect(new Set(h.bids.map((b) => b.seat)).size).toBe(4);
            for (const b of h.bids) expect(b.bid).toBe(rec.bids[b.seat]);
            expect(h.bids[0].seat).toBe((rec.dealer + 1) % 4);
            expect(h.tricks.map((t) => t.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
            const won = [0, 0, 0, 0];
            for (const t of h.tricks) won[t.winner]++;
            expect(won).toEqual(rec.tricksPerSeat);
            expect(verifyDeal(h).ok).toBe(true);
          });
        },
      ),
      { numRuns: 15 },
    );
  });

  it('refuses a log the engine refuses', () => {
    const { actions } = playLogged(SETTINGS, 7);
    const bad = actions.slice();
    const i = bad.findIndex((a) => a.type === 'play');
    bad.splice(i, 1);
    expect(() => runReplay(SETTINGS, bad)).toThrow(/refused/);
  });
});

describe('verifyDeal', () => {
  const { actions } = playLogged(SETTINGS, 42);
  const hand = runReplay(SETTINGS, actions).hands[0];

  it('detects a wrong commitment, a swapped card and a card played that was not dealt', () => {
    expect(verifyDeal(hand)).toMatchObject({ ok: true, commitmentOk: true, dealOk: true, playsOk: true });
    expect(verifyDeal({ ...hand, commitment: '0'.repeat(64) })).toMatchObject({
      ok: false,
      commitmentOk: false,
      dealOk: true,
    });
    const swapped = hand.cards.map((h) => h.slice());
    [swapped[0][0], swapped[1][0]] = [swapped[1][0], swapped[0][0]];
    expect(verifyDeal({ ...hand, cards: swapped })).toMatchObject({ ok: false, dealOk: false, commitmentOk: true });
    const other = hand.cards[1][0];
    const tricks = hand.tricks.map((t, i) =>
      i === 0 ? { ...t, cards: t.cards.map((c) => (c.seat === 0 ? { ...c, card: other } : c)) } : t,
    );
    expect(verifyDeal({ ...hand, tricks })).toMatchObject({ ok: false, playsOk: false });
    expect(verifyDeal({ ...hand, seed: 'zz' })).toMatchObject({ ok: false, recomputed: null });
  });
});
