import {
  apply,
  createGame,
  DEFAULT_SETTINGS,
  GameState,
  heuristicAct,
  mulberry32,
  PlayerView,
  randomSeed,
  viewFor,
  heuristicBot,
  Seat,
  reportBotFallback,
} from '@spades/common';
import { Test } from '@nestjs/testing';
import { BotPool, botLevelFromEnv, botPoolOptionsFromEnv, isLegalBotAction } from './bot-pool';
import { BotsModule } from './bots.module';

/** A view of the seat to play, a few tricks into a hand (driven by the heuristic bot). */
function midHandView(seed: number, plays = 9): PlayerView {
  let s: GameState = createGame(DEFAULT_SETTINGS);
  const r = apply(s, { type: 'deal', seed: randomSeed(mulberry32(seed)) });
  if (!r.ok) throw new Error(r.error);
  s = r.state;
  let played = 0;
  while (s.phase === 'BIDDING' || (s.phase === 'PLAYING' && played < plays)) {
    const seat = s.turn as Seat;
    const a = heuristicBot.act(viewFor(s, seat), mulberry32(1));
    if (!a) throw new Error('no action');
    if (a.type === 'play') played++;
    const n = apply(s, a);
    if (!n.ok) throw new Error(n.error);
    s = n.state;
  }
  return viewFor(s, s.turn as Seat);
}

describe('BotPool', () => {
  let pool: BotPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('computes strong decisions in a worker thread, legal for the view', async () => {
    pool = new BotPool({ size: 1, strongMs: 20 });
    for (let i = 0; i < 3; i++) {
      const view = midHandView(10 + i);
      const action = await pool.decide('strong', view, i);
      expect(isLegalBotAction(view, action)).toBe(true);
    }
    expect(pool.stats()).toMatchObject({ completed: 3, fallbacks: 0, restarts: 0, degraded: false });
  });

  it('does not block the event loop while a worker is busy', async () => {
    // The worker for seed 99 spins forever: had the decision run on this thread, the interval below would never
    // fire again and `decide` would never settle. Off-thread, timers keep firing until the pool's timeout
    // replaces the worker and falls back to the heuristic.
    pool = new BotPool({ size: 1, strongMs: 10, timeoutMs: 400, hangOnSeed: 99 });
    const view = midHandView(6, 0);
    await pool.decide('strong', midHandView(5), 1); // the worker is up and idle
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const action = await pool.decide('strong', view, 99);
    clearInterval(timer);
    expect(action).toEqual(heuristicAct(view));
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(pool.stats()).toMatchObject({ fallbacks: 1, restarts: 1 });
  });

  it('survives a crashing worker: the pending request falls back to the heuristic, the worker is restarted', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, crashOnSeed: 666 });
    const view = midHandView(21);
    const warm = await pool.decide('strong', view, 1);
    expect(isLegalBotAction(view, warm)).toBe(true);
    const crashed = await pool.decide('strong', view, 666);
    expect(crashed).toEqual(heuristicAct(view));
    expect(pool.stats().fallbacks).toBe(1);
    expect(pool.stats().restarts).toBe(1);
    // the replacement worker answers again
    const after = await pool.decide('strong', midHandView(22), 3);
    expect(after).not.toBeNull();
    expect(pool.stats()).toMatchObject({ completed: 2, restarts: 1, workers: 1, degraded: false });
  });

  it('counts and logs an illegal bot choice reported inside a worker, and one made on this thread', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, illegalOnSeed: 77 });
    const view = midHandView(51);
    expect(isLegalBotAction(view, await pool.decide('strong', view, 76))).toBe(true);
    expect(pool.stats().illegalChoices).toBe(0);
    const action = await pool.decide('strong', view, 77);
    expect(isLegalBotAction(view, action)).toBe(true);
    expect(pool.stats().illegalChoices).toBe(1);
    // the light levels run inline: common's safety net reports to the pool's listener directly
    reportBotFallback({ bot: 'heuristic', kind: 'bid', chosen: 14, used: 1 });
    expect(pool.stats().illegalChoices).toBe(2);
  });

  it('replaces a worker that does not answer in time and falls back', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, timeoutMs: 500, hangOnSeed: 13 });
    const view = midHandView(31);
    const action = await pool.decide('strong', view, 13);
    expect(action).toEqual(heuristicAct(view));
    expect(pool.stats().fallbacks).toBe(1);
    expect(pool.stats().restarts).toBe(1);
    const after = await pool.decide('strong', view, 14);
    expect(isLegalBotAction(view, after)).toBe(true);
    expect(pool.stats().completed).toBe(1);
  });

  it('answers the light levels inline and resolves null when it is not the seat’s turn', async () => {
    pool = new BotPool({ size: 1 });
    const view = midHandView(41);
    for (const level of ['random', 'basic', 'heuristic'] as const) {
      expect(isLegalBotAction(view, await pool.decide(level, view, 7))).toBe(true);
    }
    const seat = view.viewer as Seat;
    const notMyTurn = { ...view, turn: ((seat + 1) % 4) as Seat };
    expect(await pool.decide('heuristic', notMyTurn, 1)).toBeNull();
  });

  it('starts no worker until the first strong request', async () => {
    pool = new BotPool({ size: 2 });
    expect(pool.stats().workers).toBe(0);
    await pool.decide('heuristic', midHandView(3), 1);
    expect(pool.stats().workers).toBe(0);
    await pool.decide('strong', midHandView(3), 1);
    expect(pool.stats().workers).toBe(2);
  });

  it('is provided by BotsModule and closed on application shutdown', async () => {
    const mod = await Test.createTestingModule({ imports: [BotsModule] }).compile();
    const app = mod.createNestApplication();
    await app.init();
    const p = app.get(BotPool);
    const view = midHandView(8);
    expect(isLegalBotAction(view, await p.decide('strong', view, 5))).toBe(true);
    await app.close();
    await expect(p.decide('strong', view, 6)).rejects.toThrow('closed');
  });

  it('reads pool options from the environment', () => {
    expect(botPoolOptionsFromEnv({ BOT_WORKERS: '2', BOT_STRONG_MS: '30' })).toEqual({ size: 2, strongMs: 30, timeoutMs: undefined });
    expect(() => botPoolOptionsFromEnv({ BOT_WORKERS: 'x' })).toThrow('BOT_WORKERS');
  });

  it('parses BOT_LEVEL', () => {
    expect(botLevelFromEnv(undefined)).toBe('strong');
    expect(botLevelFromEnv('Heuristic')).toBe('heuristic');
    expect(botLevelFromEnv('basic')).toBe('basic');
    expect(botLevelFromEnv('nonsense')).toBe('strong');
  });
});
