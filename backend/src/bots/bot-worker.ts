/**
 * Worker thread entry of the BotPool: computes bot decisions off the server's event loop.
 *
 * It loads `@spades/common` from `workerData.commonEntry` (common/dist/index.js in production, common/src/index.ts
 * under jest/tsx with a TypeScript require hook registered by the bootstrap in bot-pool.ts).
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { BotWorkerData, BotWorkerRequest, BotWorkerResponse } from './bot-protocol';

type Common = typeof import('@spades/common');

const data = workerData as BotWorkerData;

/**
 * Lowers this thread's scheduling priority (BOT_WORKER_NICE). On Linux a thread is a task with an id of its own
 * (/proc/thread-self → "<pid>/task/<tid>") and setpriority(PRIO_PROCESS, tid) changes that thread only; elsewhere
 * (no /proc/thread-self) the worker keeps the process's priority. With `schedIdle` (BOT_WORKER_SCHED=idle) the thread
 * also moves itself to SCHED_IDLE (bot-protocol.ts says why), when `chrt` is there.
 */
function lowerThreadPriority(nice: number, schedIdle: boolean): number | null {
  if (!nice && !schedIdle) return null;
  let tid: number;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
  } catch {
    return null;
  }
  try {
    if (nice) setPriority(tid, nice);
  } catch {
    // not allowed here: the thread keeps the process's priority
  }
  if (schedIdle) {
    try {
      // SCHED_IDLE has no Node API; util-linux's chrt sets it for this thread (once, when the worker starts)
      execFileSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
    } catch {
      // no chrt (or refused): the nice value alone
    }
  }
  return tid;
}
lowerThreadPriority(data.nice ?? 0, data.schedIdle ?? false);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const common = require(data.commonEntry) as Common;
// A bot whose own choice was illegal still answers legally (common's safety net); the server logs it.
common.onBotFallback((event) => parentPort?.postMessage({ type: 'bot-fallback', event }));

function act(msg: BotWorkerRequest) {
  const rng = common.mulberry32(msg.seed);
  // strong: the time box the pool's budget chose for this request
  if (msg.level === 'strong') return common.strongAct(msg.view, rng, { maxMs: msg.ms });
  return (common.getBot(msg.level) ?? common.heuristicBot).act(msg.view, rng);
}

parentPort?.on('message', (msg: BotWorkerRequest) => {
  if (msg.type !== 'decide') return;
  if (data.crashOnSeed !== undefined && msg.seed === data.crashOnSeed) {
    // fault injection for tests: an uncaught exception kills this worker
    setImmediate(() => {
      throw new Error('injected bot worker crash');
    });
    return;
  }
  if (data.hangOnSeed !== undefined && msg.seed === data.hangOnSeed) {
    for (;;) {
      // fault injection for tests: a stuck worker
    }
  }
  if (data.illegalOnSeed !== undefined && msg.seed === data.illegalOnSeed) {
    // fault injection for tests: as if the bot had chosen an illegal card
    common.reportBotFallback({ bot: msg.level, kind: 'card', chosen: 'injected', used: 'first legal' });
  }
  let res: BotWorkerResponse;
  try {
    const t0 = performance.now();
    const action =
      data.badAnswerOnSeed !== undefined && msg.seed === data.badAnswerOnSeed
        ? ({ type: 'bid', seat: msg.view.viewer, bid: 99 } as never) // fault injection for tests: an illegal answer
        : act(msg);
    res = { id: msg.id, ok: true, action, ms: performance.now() - t0 };
  } catch (e) {
    res = { id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(res);
});

/** Warms the JIT up with a few quick decisions so that the first real moves stay within the time box. */
function warmUp(): void {
  const bot = common.createStrongBot({ maxMs: 5 });
  const rng = common.mulberry32(1);
  const dealt = common.apply(common.createGame(common.DEFAULT_SETTINGS), {
    type: 'deal',
    seed: common.randomSeed(rng),
  });
  if (!dealt.ok) return;
  let s = dealt.state;
  for (let i = 0; i < 12 && (s.phase === 'BIDDING' || s.phase === 'PLAYING'); i++) {
    const a = bot.act(common.viewFor(s, s.turn as 0), rng);
    if (!a) return;
    const r = common.apply(s, a);
    if (!r.ok) return;
    s = r.state;
  }
}

try {
  warmUp();
} catch {
  // a failed warm-up only costs speed
}
parentPort?.postMessage({ type: 'ready' });
