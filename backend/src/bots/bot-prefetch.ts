/**
 * BotPrefetch: one pending bot decision per key (a table), started when the bot's turn begins and taken when its
 * think delay ends — so the search runs during the delay.
 *
 *   const prefetch = new BotPrefetch(pool);
 *   // turn begins (timer armed for `at`): state `s`, bot seat `seat`
 *   prefetch.start(tableId, s, level, viewFor(s, seat), seed, at);
 *   // the timer fires: the decision made for this very state, or null (none started, or the state changed)
 *   const action = await (prefetch.take(tableId, s) ?? pool.decide(level, viewFor(s, seat), seed));
 *   // table closed: prefetch.cancel(tableId)
 *
 * `stamp` identifies the state the decision was made for (the engine state object itself works: `apply` returns
 * a new object for every change). A start with another stamp, a take with another stamp and a cancel abort the
 * pending decision (the pool drops it from its queue).
 */
import type { GameAction, PlayerView } from '@spades/common';
import type { BotLevel } from './bot-protocol';
import type { BotPool } from './bot-pool';

interface Pending {
  stamp: unknown;
  answer: Promise<GameAction | null>;
  ctl: AbortController;
}

export class BotPrefetch {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly pool: Pick<BotPool, 'decide'>) {}

  /** Starts the decision for `key` (kept as is if one was already started for the same stamp). */
  start(key: string, stamp: unknown, level: BotLevel, view: PlayerView, seed: number, deadline: number): void {
    const old = this.pending.get(key);
    if (old && old.stamp === stamp) return;
    if (old) old.ctl.abort();
    const ctl = new AbortController();
    const answer = this.pool.decide(level, view, seed, { deadline, signal: ctl.signal });
    // a closed pool rejects: take() then gets the rejection; never leave it unhandled meanwhile
    answer.catch(() => undefined);
    this.pending.set(key, { stamp, answer, ctl });
  }

  /** The decision started for `key` and this stamp (removed from the map), or null. */
  take(key: string, stamp: unknown): Promise<GameAction | null> | null {
    const p = this.pending.get(key);
    if (!p) return null;
    this.pending.delete(key);
    if (p.stamp === stamp) return p.answer;
    p.ctl.abort();
    return null;
  }

  /** Drops the pending decision of `key`, if any. */
  cancel(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    p.ctl.abort();
  }

  /** Keys with a pending decision. */
  get size(): number {
    return this.pending.size;
  }
}
