import fc from 'fast-check';
import * as os from 'node:os';
import {
  canStartInTime,
  chooseTimebox,
  CpuBudgetInput,
  MsHistogram,
  nextCpuBudget,
  RateEstimator,
  systemCpuSampler,
  TimeboxInput,
} from './bot-budget';

const base: TimeboxInput = {
  now: 1_000_000,
  deadline: 1_000_000 + 1200,
  queue: [],
  workers: 1,
  floorMs: 3,
  maxMs: 40,
  overheadMs: 1,
  marginMs: 2,
  budgetMsPerSec: 900,
  demandPerSec: 0,
};
const queueOf = (n: number, dueInMs: number) => Array.from({ length: n }, () => ({ deadline: base.now + dueInMs }));

describe('chooseTimebox (the budget’s control law)', () => {
  it('gives the full box when idle', () => {
    expect(chooseTimebox(base)).toBe(40);
    expect(chooseTimebox({ ...base, demandPerSec: 5 })).toBe(40);
  });

  it('shrinks as the queue grows, down to the floor, and recovers when the queue drains', () => {
    const boxes = [0, 10, 30, 60, 100, 300, 1000].map((n) => chooseTimebox({ ...base, queue: queueOf(n, 1200) }));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]).toBeLessThanOrEqual(boxes[i - 1]);
    expect(boxes[0]).toBe(40);
    // 31 requests due in 1.2 s on one worker: (1200 − 2) / 31 − 1 ≈ 37.6 ms each
    expect(boxes[2]).toBe(Math.floor(((1200 - 2) / 31 - 1) * 10) / 10);
    expect(boxes[boxes.length - 1]).toBe(3);
    expect(chooseTimebox({ ...base, queue: [] })).toBe(40);
  });

  it('fits the queue in the time left: every queued request could still finish by its deadline', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 5, max: 3000 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 20, max: 3000 }),
        (dues, workers, firstDue) => {
          const deadlines = [...dues].sort((a, b) => a - b).map((d) => base.now + Math.max(d, firstDue));
          const input = {
            ...base,
            workers,
            deadline: base.now + firstDue,
            queue: deadlines.map((deadline) => ({ deadline })),
          };
          const t = chooseTimebox(input);
          expect(t).toBeGreaterThanOrEqual(base.floorMs);
          expect(t).toBeLessThanOrEqual(base.maxMs);
          if (t > base.floorMs) {
            // above the floor, the box is one that every request meets (rank k starts in round ⌊k / workers⌋)
            const all = [input.deadline, ...deadlines];
            all.forEach((d, k) => {
              const end = base.now + (Math.floor(k / workers) + 1) * (t + base.overheadMs) + base.marginMs;
              expect(end).toBeLessThanOrEqual(d + 1e-6);
            });
          }
        },
      ),
    );
  });

  it('spreads more workers over the same queue with bigger boxes', () => {
    const one = chooseTimebox({ ...base, queue: queueOf(60, 1000) });
    const three = chooseTimebox({ ...base, workers: 3, budgetMsPerSec: 2700, queue: queueOf(60, 1000) });
    expect(three).toBeGreaterThan(one);
  });

  it('keeps the demand within the CPU budget', () => {
    // 300 searches per second on a budget of 900 ms/s: 3 ms each, minus the overhead → the floor
    expect(chooseTimebox({ ...base, demandPerSec: 300 })).toBe(3);
    // 50 per second: 18 ms − 1 ms overhead
    expect(chooseTimebox({ ...base, demandPerSec: 50 })).toBe(17);
  });

  it('never gives more than the time left before the request’s own deadline (above the floor)', () => {
    expect(chooseTimebox({ ...base, deadline: base.now + 20 })).toBe(17);
    expect(chooseTimebox({ ...base, deadline: base.now + 4 })).toBe(3);
  });
});

describe('canStartInTime', () => {
  it('needs the floor box, the overhead and the margin before the deadline', () => {
    expect(canStartInTime(106, 100, 3, 1, 2)).toBe(true);
    expect(canStartInTime(105.9, 100, 3, 1, 2)).toBe(false);
  });
});

describe('RateEstimator', () => {
  it('measures a steady rate and decays when the events stop', () => {
    const r = new RateEstimator(1000);
    let t = 0;
    for (let i = 0; i < 1000; i++) r.hit((t += 10)); // 100 per second for 10 s
    expect(r.rate(t)).toBeGreaterThan(95);
    expect(r.rate(t)).toBeLessThan(105);
    expect(r.rate(t + 1000)).toBeCloseTo(r.rate(t) / Math.E, 5);
    expect(r.rate(t + 20_000)).toBeLessThan(0.001);
    expect(new RateEstimator().rate(5)).toBe(0);
  });
});

describe('MsHistogram', () => {
  it('counts cumulative buckets, sum, count and recent quantiles', () => {
    const h = new MsHistogram([1, 5, 10], 4);
    for (const ms of [0.5, 3, 3, 7, 20]) h.observe(ms);
    expect(h.snapshot()).toEqual({ buckets: [1, 5, 10], counts: [1, 3, 4], sum: 33.5, count: 5 });
    // the window holds the last 4: 3, 3, 7, 20
    expect(h.quantile(0.5)).toBe(3);
    expect(h.quantile(0.99)).toBe(20);
    expect(new MsHistogram().quantile(0.5)).toBe(0);
  });
});

describe('nextCpuBudget (the budget follows the machine)', () => {
  const idle: CpuBudgetInput = {
    maxMsPerSec: 900,
    minMsPerSec: 100,
    share: 0.8,
    idleCores: 1.5,
    eventLoopUtilization: 0.2,
    workerMsPerSec: 0,
    previousMsPerSec: 900,
  };

  it('stays at the maximum on an idle machine', () => {
    expect(nextCpuBudget(idle)).toBe(900);
  });

  it('falls on a saturated machine, even when the bots are the ones using the CPU, down to the minimum', () => {
    // no idle CPU, the workers took 900 ms/s: the bots keep 80 % of what they had, sample after sample
    let b = 900;
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      b = nextCpuBudget({ ...idle, idleCores: 0, workerMsPerSec: b, previousMsPerSec: b });
      seen.push(b);
    }
    expect(seen[0]).toBe(720);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThanOrEqual(seen[i - 1]);
    expect(seen[seen.length - 1]).toBe(100);
  });

  it('leaves idle CPU: it settles where the idle time is a quarter of the bots’ use (share 0.8)', () => {
    // 500 ms/s idle and the workers at 600: (500 + 600) × 0.8 = 880
    expect(nextCpuBudget({ ...idle, idleCores: 0.5, workerMsPerSec: 600, previousMsPerSec: 600 })).toBe(880);
    // idle 150 next to 600 of the bots' own: (150 + 600) × 0.8 = 600, i.e. stable
    expect(nextCpuBudget({ ...idle, idleCores: 0.15, workerMsPerSec: 600, previousMsPerSec: 600 })).toBe(600);
  });

  it('scales down when the event loop is saturated (ELU > 0.8)', () => {
    expect(nextCpuBudget({ ...idle, eventLoopUtilization: 0.8 })).toBe(900);
    // (1.5 × 1000) × 0.8 = 1200, × (1 − 0.9) / 0.2 = 600
    expect(nextCpuBudget({ ...idle, eventLoopUtilization: 0.9 })).toBe(600);
    expect(nextCpuBudget({ ...idle, eventLoopUtilization: 1 })).toBe(100);
  });

  it('returns to the maximum within two samples once the machine is idle again', () => {
    const one = nextCpuBudget({ ...idle, previousMsPerSec: 100 });
    expect(one).toBe(550);
    expect(nextCpuBudget({ ...idle, previousMsPerSec: one })).toBe(900);
  });

  it('BOT_CPU_SHARE: the share of the idle CPU the bots take', () => {
    expect(nextCpuBudget({ ...idle, idleCores: 1, share: 0.5, previousMsPerSec: 900 })).toBe(500);
    expect(nextCpuBudget({ ...idle, idleCores: 1, share: 0, previousMsPerSec: 900 })).toBe(100);
  });

  it('always stays within [min, max] and never rises by more than half the maximum per sample', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 64, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.double({ min: 100, max: 900, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (idleCores, elu, workerMsPerSec, previousMsPerSec, share) => {
          const b = nextCpuBudget({
            ...idle,
            idleCores,
            eventLoopUtilization: elu,
            workerMsPerSec,
            previousMsPerSec,
            share,
          });
          expect(b).toBeGreaterThanOrEqual(100);
          expect(b).toBeLessThanOrEqual(900);
          expect(b).toBeLessThanOrEqual(Math.max(100, previousMsPerSec + 450) + 0.05);
        },
      ),
    );
  });
});

describe('systemCpuSampler', () => {
  it('reads the event loop utilization and the idle cores of this machine', async () => {
    const sample = systemCpuSampler();
    const spinUntil = Date.now() + 30;
    while (Date.now() < spinUntil) {
      // keep the event loop busy for a moment
    }
    await new Promise((r) => setTimeout(r, 20));
    const s = sample();
    expect(s.eventLoopUtilization).toBeGreaterThan(0);
    expect(s.eventLoopUtilization).toBeLessThanOrEqual(1);
    expect(s.idleCores).toBeGreaterThanOrEqual(0);
    expect(s.idleCores).toBeLessThanOrEqual(os.cpus().length);
  });
});
