/**
 * Bot pool under load: `npm run bench:bot-pool -w backend -- [--rate 500] [--seconds 10] [--workers N]
 * [--floor 3] [--max 40] [--delay-min 1000] [--delay-max 1500] [--share 0.8] [--fixed 1]`
 *
 * Sends `rate` strong decisions per second (views that need a search, from random mid-hand positions) to one
 * BotPool with real worker threads, each with a deadline `delay` ms ahead (the bots' think delay), as the games
 * module does when a bot's turn begins, and takes the answer when the delay's timer fires. Last output line: JSON
 * { rate, seconds, workers, floorMs, maxMs, requests, searched, inline, fallbacks, fallbackShare, fallbacksByReason,
 * waitedForAnswer, waitP99Ms, waitMaxMs, timerLagP99Ms, timeboxP50, timeboxMin, decisionMsP50, workerUtilization,
 * overheadMs }: `searched` decisions came from a worker's search (the rest from the heuristic, because they could
 * not be served in time); `waitedForAnswer` counts delay timers that had to wait ≥ 1 ms for the answer (by up to
 * `waitMaxMs`): the table delays the bot caused; `timerLagP99Ms`: how late the delay timers themselves fired (the
 * event loop's own lag, on a busy machine). The CPU budget follows the machine (`--share`: BOT_CPU_SHARE;
 * `--fixed 1`: the old fixed budget at workers × 1000 × 0.9): `budgetP50`/`budgetMin` (ms/s, sampled every
 * 500 ms), `cpuIdleCoresP50`, `eluP50`.
 */
import {
  apply,
  createGame,
  DEFAULT_SETTINGS,
  GameState,
  heuristicBot,
  mulberry32,
  PlayerView,
  randomSeed,
  Seat,
  strongNeedsSearch,
  viewFor,
} from '@spades/common';
import { parseArgs } from 'node:util';
import { Logger } from '@nestjs/common';
import { BotPool } from '../src/bots/bot-pool';
import { percentile } from './load/stats';

const NUMBER_OPTIONS = [
  'rate',
  'seconds',
  'workers',
  'floor',
  'max',
  'delay-min',
  'delay-max',
  'share',
  'fixed',
] as const;
const { values: argValues } = parseArgs({
  options: Object.fromEntries(NUMBER_OPTIONS.map((n) => [n, { type: 'string' as const }])),
  strict: true,
  allowPositionals: true, // npm's `--`
});

/** A number option (`--name value` or `--name=value`), `def` when absent. */
function arg(name: (typeof NUMBER_OPTIONS)[number], def: number): number {
  const v = argValues[name];
  return typeof v === 'string' ? Number(v) : def;
}

function views(n: number): PlayerView[] {
  const out: PlayerView[] = [];
  const rng = mulberry32(42);
  for (let g = 0; out.length < n; g++) {
    const d = apply(createGame(DEFAULT_SETTINGS), { type: 'deal', seed: randomSeed(rng) });
    if (!d.ok) throw new Error(d.error);
    let s: GameState = d.state;
    while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
      const v = viewFor(s, s.turn as Seat);
      if (strongNeedsSearch(v) && rng() < 0.3) out.push(v);
      const r = apply(s, heuristicBot.act(v, rng)!);
      if (!r.ok) throw new Error(r.error);
      s = r.state;
    }
  }
  return out;
}

/** Quantile q (0..1) of ms samples (the load bench's histogram percentile), 0 without samples. */
const quantile = (xs: number[], q: number): number => percentile(xs, q * 100) ?? 0;

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const rate = arg('rate', 500);
  const seconds = arg('seconds', 10);
  const delayMin = arg('delay-min', 1000);
  const delayMax = arg('delay-max', 1500);
  const workersArg = arg('workers', 0);
  const pool = new BotPool({
    size: workersArg > 0 ? workersArg : undefined,
    floorMs: arg('floor', 3),
    strongMs: arg('max', 40),
    cpuShare: arg('share', 0.8),
    cpuSampler: arg('fixed', 0) === 1 ? null : undefined,
  });
  const budgets: number[] = [];
  const idles: number[] = [];
  const elus: number[] = [];
  const watch = setInterval(() => {
    const st = pool.stats();
    budgets.push(st.budgetMsPerSec);
    if (st.cpuIdleCores !== null) idles.push(st.cpuIdleCores);
    if (st.eventLoopUtilization !== null) elus.push(st.eventLoopUtilization);
  }, 500);
  const boxes: number[] = [];
  pool.onDecision((e) => {
    if (e.outcome === 'worker' && e.timeboxMs !== null) boxes.push(e.timeboxMs);
  });
  const pool0 = views(400);
  await pool.ready();
  const busy0 = pool.stats().busyMsTotal;
  const waits: number[] = [];
  const lags: number[] = [];
  const pending: Promise<void>[] = [];
  const rng = mulberry32(7);
  const t0 = Date.now();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      const elapsed = Date.now() - t0;
      if (elapsed >= seconds * 1000) {
        clearInterval(tick);
        done();
        return;
      }
      const due = Math.floor((elapsed / 1000) * rate);
      for (; sent < due; sent++) {
        const deadline = Date.now() + delayMin + rng() * (delayMax - delayMin);
        const answer = pool.decide('strong', pool0[sent % pool0.length], sent, { deadline });
        // as the games module: when the think delay ends, take the answer (waiting if it is not there yet)
        pending.push(
          new Promise<void>((res) =>
            setTimeout(() => {
              const fired = Date.now();
              lags.push(fired - deadline);
              void answer.then(() => {
                waits.push(Date.now() - fired);
                res();
              });
            }, deadline - Date.now()),
          ),
        );
      }
    }, 5);
  });
  await Promise.all(pending);
  clearInterval(watch);
  const st = pool.stats();
  const waited = waits.filter((x) => x >= 1);
  const round = (x: number) => Math.round(x * 100) / 100;
  console.log(
    JSON.stringify({
      rate,
      seconds,
      workers: st.workers,
      floorMs: st.floorMs,
      maxMs: st.maxMs,
      requests: sent,
      searched: st.completed,
      inline: st.inlineTotal,
      fallbacks: st.fallbacksTotal,
      fallbackShare: round(st.fallbacksTotal / Math.max(1, sent)),
      fallbacksByReason: st.fallbacksByReason,
      waitedForAnswer: waited.length,
      waitP99Ms: round(quantile(waits, 0.99)),
      waitMaxMs: round(waits.length ? Math.max(...waits) : 0),
      timerLagP99Ms: round(quantile(lags, 0.99)),
      timeboxP50: round(quantile(boxes, 0.5)),
      timeboxMin: round(boxes.length ? Math.min(...boxes) : 0),
      decisionMsP50: st.decisionMsP50,
      workerUtilization: round((st.busyMsTotal - busy0) / ((Date.now() - t0) * st.workers)),
      overheadMs: st.overheadMs,
      budgetP50: round(quantile(budgets, 0.5)),
      budgetMin: round(budgets.length ? Math.min(...budgets) : 0),
      cpuIdleCoresP50: round(quantile(idles, 0.5)),
      eluP50: round(quantile(elus, 0.5)),
    }),
  );
  await pool.close();
}

void main();
