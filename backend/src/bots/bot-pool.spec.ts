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
  strongNeedsSearch,
  GameAction,
} from '@spades/common';
import { Test } from '@nestjs/testing';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { BotDecisionEvent, BotPool, botLevelFromEnv, botPoolOptionsFromEnv, isLegalBotAction } from './bot-pool';
import { BotsModule } from './bots.module';

/** The state a few tricks into a hand (driven by the heuristic bot), stopped at the first decision from `plays` on that needs a search. */
function midHandState(seed: number, plays = 9): GameState {
  let s: GameState = createGame(DEFAULT_SETTINGS);
  const r = apply(s, { type: 'deal', seed: randomSeed(mulberry32(seed)) });
  if (!r.ok) throw new Error(r.error);
  s = r.state;
  let played = 0;
  while (
    s.phase === 'BIDDING' ||
    (s.phase === 'PLAYING' && (played < plays || !strongNeedsSearch(viewFor(s, s.turn as Seat))))
  ) {
    const seat = s.turn as Seat;
    const a = heuristicBot.act(viewFor(s, seat), mulberry32(1));
    if (!a) throw new Error('no action');
    if (a.type === 'play') played++;
    const n = apply(s, a);
    if (!n.ok) throw new Error(n.error);
    s = n.state;
  }
  return s;
}

/** A view of the seat to play that needs a search (so a strong request goes to a worker). */
function midHandView(seed: number, plays = 9): PlayerView {
  const s = midHandState(seed, plays);
  return viewFor(s, s.turn as Seat);
}

/** A view whose decision is forced: the last trick of a hand. */
function forcedView(seed: number): PlayerView {
  let s = midHandState(seed, 0);
  while (s.phase === 'PLAYING' && s.hands[s.turn as Seat].length > 1) {
    const a = heuristicBot.act(viewFor(s, s.turn as Seat), mulberry32(1)) as GameAction;
    const n = apply(s, a);
    if (!n.ok) throw new Error(n.error);
    s = n.state;
  }
  return viewFor(s, s.turn as Seat);
}

/** These tests are about the queue: a fixed budget (no sampling of this shared, busy machine). */
const FIXED_BUDGET = null;

describe('BotPool', () => {
  let pool: BotPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('computes strong decisions in a worker thread, legal for the view', async () => {
    pool = new BotPool({ size: 1, strongMs: 20 });
    await pool.ready();
    for (let i = 0; i < 3; i++) {
      const view = midHandView(10 + i);
      const action = await pool.decide('strong', view, i, { deadline: Date.now() + 5000 });
      expect(isLegalBotAction(view, action)).toBe(true);
    }
    expect(pool.stats()).toMatchObject({
      completed: 3,
      fallbacksTotal: 0,
      restarts: 0,
      degraded: false,
      decisionsTotal: 3,
    });
  });

  it('answers a strong decision with nothing to search on the spot, without a worker round trip', async () => {
    pool = new BotPool({ size: 1, strongMs: 20 });
    const view = forcedView(4);
    expect(strongNeedsSearch(view)).toBe(false);
    const action = await pool.decide('strong', view, 1);
    expect(isLegalBotAction(view, action)).toBe(true);
    expect(pool.stats()).toMatchObject({ inlineTotal: 1, completed: 0, decisionsTotal: 1 });
    expect(pool.stats().decisionMs.count).toBe(0);
  });

  it('does not block the event loop while a worker is busy', async () => {
    // The worker for seed 99 spins forever: had the decision run on this thread, the interval below would never
    // fire again and `decide` would never settle. Off-thread, timers keep firing until the pool's timeout
    // replaces the worker and falls back to the heuristic.
    pool = new BotPool({ size: 1, strongMs: 10, timeoutMs: 400, hangOnSeed: 99 });
    const view = midHandView(6, 0);
    await pool.ready(); // the worker is up and idle
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const action = await pool.decide('strong', view, 99, { deadline: Date.now() + 60_000 });
    clearInterval(timer);
    expect(action).toEqual(heuristicAct(view));
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(pool.stats()).toMatchObject({ fallbacksTotal: 1, restarts: 1 });
    expect(pool.stats().fallbacksByReason.timeout).toBe(1);
  });

  it('survives a crashing worker: the pending request falls back to the heuristic, the worker is restarted', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, crashOnSeed: 666 });
    await pool.ready();
    const view = midHandView(21);
    const warm = await pool.decide('strong', view, 1, { deadline: Date.now() + 5000 });
    expect(isLegalBotAction(view, warm)).toBe(true);
    const crashed = await pool.decide('strong', view, 666, { deadline: Date.now() + 5000 });
    expect(crashed).toEqual(heuristicAct(view));
    expect(pool.stats().fallbacksByReason.crash).toBe(1);
    expect(pool.stats().restarts).toBe(1);
    // the replacement worker answers again
    const after = await pool.decide('strong', midHandView(22), 3, { deadline: Date.now() + 5000 });
    expect(after).not.toBeNull();
    expect(pool.stats()).toMatchObject({ completed: 2, fallbacksTotal: 1, restarts: 1, workers: 1, degraded: false });
  });

  it('counts and logs an illegal bot choice reported inside a worker, and one made on this thread', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, illegalOnSeed: 77 });
    await pool.ready();
    const view = midHandView(51);
    expect(isLegalBotAction(view, await pool.decide('strong', view, 76, { deadline: Date.now() + 5000 }))).toBe(true);
    expect(pool.stats().illegalChoices).toBe(0);
    const action = await pool.decide('strong', view, 77, { deadline: Date.now() + 5000 });
    expect(isLegalBotAction(view, action)).toBe(true);
    expect(pool.stats().illegalChoices).toBe(1);
    // the light levels run inline: common's safety net reports to the pool's listener directly
    reportBotFallback({ bot: 'heuristic', kind: 'bid', chosen: 14, used: 1 });
    expect(pool.stats().illegalChoices).toBe(2);
  });

  it('catches an illegal answer from a worker and plays the heuristic instead', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, badAnswerOnSeed: 55 });
    await pool.ready();
    const view = midHandView(52);
    const action = await pool.decide('strong', view, 55, { deadline: Date.now() + 5000 });
    expect(action).toEqual(heuristicAct(view));
    expect(pool.stats()).toMatchObject({ completed: 0, fallbacksTotal: 1, restarts: 0 });
    expect(pool.stats().fallbacksByReason.illegal).toBe(1);
  });

  it('replaces a worker that does not answer in time and falls back', async () => {
    pool = new BotPool({ size: 1, strongMs: 10, timeoutMs: 500, hangOnSeed: 13 });
    await pool.ready();
    const view = midHandView(31);
    const action = await pool.decide('strong', view, 13, { deadline: Date.now() + 60_000 });
    expect(action).toEqual(heuristicAct(view));
    expect(pool.stats().fallbacksTotal).toBe(1);
    expect(pool.stats().restarts).toBe(1);
    const after = await pool.decide('strong', view, 14, { deadline: Date.now() + 5000 });
    expect(isLegalBotAction(view, after)).toBe(true);
    expect(pool.stats().completed).toBe(1);
  });

  it('answers by the heuristic at the deadline when the worker is late, instead of delaying the table', async () => {
    // the worker for seed 13 never answers; the stuck-worker timeout (10 s) is far away, the deadline is not
    pool = new BotPool({ size: 1, strongMs: 10, timeoutMs: 10_000, lateGraceMs: 10, hangOnSeed: 13 });
    const view = midHandView(32);
    await pool.ready();
    const t0 = Date.now();
    const action = await pool.decide('strong', view, 13, { deadline: t0 + 150 });
    const took = Date.now() - t0;
    expect(action).toEqual(heuristicAct(view));
    expect(took).toBeLessThan(5000); // i.e. not the 10 s timeout
    expect(pool.stats().fallbacksByReason).toMatchObject({ late: 1, timeout: 0 });
    expect(pool.stats().inFlight).toBe(1); // the worker is still stuck (replaced at its timeout)
  });

  it('answers at once by the heuristic a request that the busy workers cannot reach before its deadline', async () => {
    // a 300 ms box keeps the worker busy long after the urgent request's deadline, even on a slow machine
    pool = new BotPool({ size: 1, strongMs: 300, floorMs: 3, cpuSampler: FIXED_BUDGET });
    await pool.ready();
    const order: string[] = [];
    const view = midHandView(65);
    const long = pool
      .decide('strong', midHandView(64), 1, { deadline: Date.now() + 10_000 })
      .then(() => order.push('long'));
    const urgent = pool.decide('strong', view, 2, { deadline: Date.now() + 15 }).then((a) => {
      order.push('urgent');
      return a;
    });
    expect(await urgent).toEqual(heuristicAct(view));
    await long;
    expect(order).toEqual(['urgent', 'long']);
    expect(pool.stats().fallbacksByReason).toMatchObject({ busy: 1, late: 0 });
    expect(pool.stats().completed).toBe(1);
  });

  it('serves queued requests earliest deadline first', async () => {
    pool = new BotPool({ size: 1, strongMs: 30, floorMs: 3, cpuSampler: FIXED_BUDGET });
    await pool.ready();
    const now = Date.now();
    const order: string[] = [];
    const busy = pool.decide('strong', midHandView(61), 2, { deadline: now + 10_000 }).then(() => order.push('busy'));
    const late = pool.decide('strong', midHandView(62), 3, { deadline: now + 8000 }).then(() => order.push('late'));
    const soon = pool.decide('strong', midHandView(63), 4, { deadline: now + 4000 }).then(() => order.push('soon'));
    await Promise.all([busy, late, soon]);
    expect(order).toEqual(['busy', 'soon', 'late']);
  });

  it('shrinks the time box as the queue grows, never below the floor, and recovers when idle', async () => {
    pool = new BotPool({ size: 1, strongMs: 40, floorMs: 3, cpuSampler: FIXED_BUDGET });
    const events: BotDecisionEvent[] = [];
    pool.onDecision((e) => events.push(e));
    await pool.ready();
    await pool.decide('strong', midHandView(70), 1, { deadline: Date.now() + 5000 }); // up, warm
    expect(events[0]).toMatchObject({ outcome: 'worker', timeboxMs: 40 });
    expect(pool.stats().timeboxMs).toBe(40);

    // 24 requests at once, all due within 0.6 s: 24 × 40 ms would not fit
    const views = Array.from({ length: 24 }, (_, i) => midHandView(71 + i));
    const deadline = Date.now() + 600;
    const pending = views.map((v, i) => pool!.decide('strong', v, i, { deadline }));
    const during = pool.stats();
    expect(during.queueDepth + during.inFlight).toBe(24);
    expect(during.inFlight).toBeLessThanOrEqual(1);
    expect(during.timeboxMs).toBeLessThan(40);
    const actions = await Promise.all(pending);
    actions.forEach((a, i) => expect(isLegalBotAction(views[i], a)).toBe(true));
    const burst = events.slice(1);
    expect(burst).toHaveLength(24);
    // the boxes of the requests a worker took, in the order it took them (one worker answers in that order)
    const boxes = burst.filter((e) => e.timeboxMs !== null).map((e) => e.timeboxMs as number);
    expect(boxes.length).toBeGreaterThan(1);
    expect(Math.min(...boxes)).toBeGreaterThanOrEqual(3);
    // the first one started before the others arrived (a box is never cut short); the next ones saw the queue
    expect(boxes[0]).toBe(40);
    expect(boxes[1]).toBeLessThan(40);
    // every request was served by a worker or answered by the heuristic because it could not be served in time
    for (const e of burst) expect(['worker', 'late', 'busy']).toContain(e.outcome);

    // idle again: the full box
    expect(pool.stats()).toMatchObject({ queueDepth: 0, inFlight: 0, timeboxMs: 40 });
    await pool.decide('strong', midHandView(99), 1, { deadline: Date.now() + 5000 });
    expect(events[events.length - 1]).toMatchObject({ outcome: 'worker', timeboxMs: 40 });
  });

  it('answers requests that cannot be served in time by the heuristic, and reports the work in stats()', async () => {
    pool = new BotPool({ size: 1, strongMs: 40, floorMs: 3, cpuSampler: FIXED_BUDGET });
    await pool.ready();
    await pool.decide('strong', midHandView(100), 1, { deadline: Date.now() + 5000 }); // warm
    const views = Array.from({ length: 40 }, (_, i) => midHandView(101 + i));
    const deadline = Date.now() + 40;
    const actions = await Promise.all(views.map((v, i) => pool!.decide('strong', v, i, { deadline })));
    actions.forEach((a, i) => expect(isLegalBotAction(views[i], a)).toBe(true));
    const s = pool.stats();
    // 40 ms cannot hold 40 decisions of ≥ 3 ms on one worker: the excess is answered by the heuristic, at once
    // when the queue ahead already fills the time left ('busy'), else at the request's latest start ('late')
    expect(s.fallbacksByReason.busy + s.fallbacksByReason.late).toBeGreaterThan(0);
    expect(s.fallbacksByReason.busy + s.fallbacksByReason.late).toBe(s.fallbacksTotal);
    expect(s.decisionsTotal).toBe(41);
    expect(s.completed + s.inlineTotal + s.fallbacksTotal).toBe(s.decisionsTotal);
    expect(s.completed).toBeGreaterThanOrEqual(1);
    // the histogram counts every worker answer (also those that came after their request had fallen back)
    expect(s.decisionMs.count).toBeGreaterThanOrEqual(s.completed);
    expect(s.decisionMs.counts[s.decisionMs.counts.length - 1]).toBeLessThanOrEqual(s.decisionMs.count);
    expect(s.busyMsTotal).toBeGreaterThan(0);
    expect(s.decisionMsP50).toBeGreaterThan(0);
    expect(s.demandPerSec).toBeGreaterThan(0);
    expect(s.budgetMsPerSec).toBe(900);
    expect(s).toMatchObject({ workers: 1, queueDepth: 0, floorMs: 3, maxMs: 40 });
  });

  it('resolves an aborted request with null and drops it from the queue', async () => {
    pool = new BotPool({ size: 1, strongMs: 30 });
    await pool.ready();
    const first = pool.decide('strong', midHandView(151), 2, { deadline: Date.now() + 5000 });
    const ctl = new AbortController();
    const second = pool.decide('strong', midHandView(152), 3, { deadline: Date.now() + 5000, signal: ctl.signal });
    expect(pool.stats().queueDepth).toBe(1);
    ctl.abort();
    expect(await second).toBeNull();
    expect(pool.stats()).toMatchObject({ queueDepth: 0, aborted: 1 });
    expect(await first).not.toBeNull();
    expect(pool.stats()).toMatchObject({ completed: 1, decisionsTotal: 1 });
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
    expect(pool.stats()).toMatchObject({ inlineTotal: 3, decisionsTotal: 3 });
  });

  it('runs its workers at the lowest priority (nice 19), or at BOT_WORKER_NICE', async () => {
    // Linux: every thread of this process with its nice value (field 19 of /proc/self/task/<tid>/stat)
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
      );
    const lowest = () => niceOfThreads().filter((n) => n === 19).length;
    const before = lowest();
    pool = new BotPool({ size: 2 });
    await pool.ready();
    expect(lowest()).toBe(before + 2);
    await pool.close();
    pool = new BotPool({ size: 1, workerNice: 7 });
    await pool.ready();
    expect(niceOfThreads().filter((n) => n === 7)).toHaveLength(1);
    await pool.close();
    pool = new BotPool({ size: 1, workerNice: 0 });
    await pool.ready();
    expect(niceOfThreads().filter((n) => n !== 0 && n !== 19)).toHaveLength(0);
  });

  it('puts its workers in SCHED_IDLE by default (when chrt exists), or leaves the policy with BOT_WORKER_SCHED=normal', async () => {
    // Linux: the scheduling policy of every thread of this process (field 41 of /proc/self/task/<tid>/stat; 5 = SCHED_IDLE)
    const idleThreads = () =>
      readdirSync('/proc/self/task').filter(
        (tid) => readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[38] === '5',
      ).length;
    const hasChrt = spawnSync('chrt', ['--version']).status === 0;
    if (!hasChrt) console.warn('[bot-pool.spec] no chrt on this machine: the workers keep their nice value only');
    const before = idleThreads();
    pool = new BotPool({ size: 2 });
    await pool.ready();
    expect(idleThreads()).toBe(before + (hasChrt ? 2 : 0));
    await pool.close();
    pool = new BotPool({ size: 1, workerSchedIdle: false });
    await pool.ready();
    expect(idleThreads()).toBe(before);
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

  it('shrinks its CPU budget on a saturated machine (fewer searches) and returns to the maximum when idle', async () => {
    let t = 1_000_000;
    let machine = { eventLoopUtilization: 0.95, idleCores: 0 };
    pool = new BotPool({
      size: 1,
      strongMs: 5,
      floorMs: 3,
      minBudgetMsPerSec: 20,
      sampleIntervalMs: 0, // sampled by the test
      cpuSampler: () => machine,
      now: () => t,
    });
    const events: BotDecisionEvent[] = [];
    pool.onDecision((e) => events.push(e));
    await pool.ready();
    expect(pool.stats()).toMatchObject({
      budgetMsPerSec: 900,
      maxBudgetMsPerSec: 900,
      cpuIdleCores: null,
      eventLoopUtilization: null,
    });
    const burst = async (n: number) => {
      const views = Array.from({ length: n }, (_, i) => midHandView(300 + (i % 6)));
      const actions = await Promise.all(views.map((v, i) => pool!.decide('strong', v, i, { deadline: t + 60_000 })));
      actions.forEach((a, i) => expect(isLegalBotAction(views[i], a)).toBe(true));
      const out = events.splice(0);
      return {
        searched: out.filter((e) => e.outcome === 'worker').length,
        budget: out.filter((e) => e.outcome === 'budget').length,
      };
    };

    // saturated: no idle core, the event loop at 95 %
    t += 1000;
    expect(pool.sampleCpu()).toBe(20);
    expect(pool.stats()).toMatchObject({ budgetMsPerSec: 20, cpuIdleCores: 0, eventLoopUtilization: 0.95 });
    const saturated = await burst(30);
    // 20 ms/s buys a few floor boxes (3 ms + overhead) per second: the rest get the heuristic at once
    expect(saturated.budget).toBeGreaterThan(0);
    expect(saturated.searched + saturated.budget).toBe(30);
    expect(saturated.searched).toBeLessThan(30);
    expect(pool.stats().fallbacksByReason.budget).toBe(saturated.budget);

    // idle again: back to the maximum within two samples, and every decision is searched
    machine = { eventLoopUtilization: 0.1, idleCores: 2 };
    t += 1000;
    const first = pool.sampleCpu();
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThan(900);
    t += 1000;
    expect(pool.sampleCpu()).toBe(900);
    expect(pool.stats()).toMatchObject({ budgetMsPerSec: 900, cpuIdleCores: 2, eventLoopUtilization: 0.1 });
    t += 60_000; // the admitted rate of the first burst has decayed
    const idle = await burst(30);
    expect(idle).toEqual({ searched: 30, budget: 0 });
  });

  it('reads pool options from the environment', () => {
    expect(botPoolOptionsFromEnv({ BOT_WORKERS: '2', BOT_STRONG_MS: '30', BOT_FLOOR_MS: '2.5' })).toEqual({
      size: 2,
      strongMs: 30,
      floorMs: 2.5,
      timeoutMs: undefined,
    });
    expect(() => botPoolOptionsFromEnv({ BOT_WORKERS: 'x' })).toThrow('BOT_WORKERS');
    expect(() => botPoolOptionsFromEnv({ BOT_WORKERS: '1.5' })).toThrow('BOT_WORKERS');
    expect(() => botPoolOptionsFromEnv({ BOT_FLOOR_MS: '0' })).toThrow('BOT_FLOOR_MS');
    expect(botPoolOptionsFromEnv({ BOT_WORKER_NICE: '0' }).workerNice).toBe(0);
    expect(botPoolOptionsFromEnv({ BOT_WORKER_NICE: '10' }).workerNice).toBe(10);
    expect(botPoolOptionsFromEnv({}).workerNice).toBeUndefined();
    expect(botPoolOptionsFromEnv({ BOT_WORKER_SCHED: 'normal' }).workerSchedIdle).toBe(false);
    expect(botPoolOptionsFromEnv({ BOT_WORKER_SCHED: 'idle' }).workerSchedIdle).toBe(true);
    expect(botPoolOptionsFromEnv({}).workerSchedIdle).toBeUndefined();
    expect(() => botPoolOptionsFromEnv({ BOT_WORKER_SCHED: 'fifo' })).toThrow(
      'BOT_WORKER_SCHED must be idle or normal',
    );
    expect(() => botPoolOptionsFromEnv({ BOT_WORKER_NICE: '20' })).toThrow('BOT_WORKER_NICE');
    expect(() => botPoolOptionsFromEnv({ BOT_WORKER_NICE: '-1' })).toThrow('BOT_WORKER_NICE');
    expect(botPoolOptionsFromEnv({ BOT_CPU_SHARE: '0.5' }).cpuShare).toBe(0.5);
    expect(botPoolOptionsFromEnv({ BOT_CPU_SHARE: '0' }).cpuShare).toBe(0);
    expect(botPoolOptionsFromEnv({}).cpuShare).toBeUndefined();
    expect(() => botPoolOptionsFromEnv({ BOT_CPU_SHARE: '1.5' })).toThrow('BOT_CPU_SHARE');
    expect(() => botPoolOptionsFromEnv({ BOT_CPU_SHARE: 'x' })).toThrow('BOT_CPU_SHARE');
  });

  it('parses BOT_LEVEL', () => {
    expect(botLevelFromEnv(undefined)).toBe('strong');
    expect(botLevelFromEnv('Heuristic')).toBe('heuristic');
    expect(botLevelFromEnv('basic')).toBe('basic');
    expect(botLevelFromEnv('nonsense')).toBe('strong');
  });
});
