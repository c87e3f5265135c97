/**
 * The bot pool's accounting: every answered decision counted by outcome (a worker's search, inline, or the
 * fallback's reason), told to the `onDecision` listeners, and the workers' compute time in a histogram. What
 * `BotPool.stats()` reports about decisions comes from here.
 */
import { Logger } from '@nestjs/common';
import type { BotFallbackEvent, GameAction } from '@spades/common';
import { MsHistogram } from './bot-budget';
import type { BotLevel } from './bot-protocol';
import { FALLBACK_REASONS, type BotDecisionEvent, type BotFallbackReason, type BotPoolStats } from './bot-pool.types';

export class DecisionTally {
  private completed = 0;
  private inline = 0;
  private readonly fallbacks: Record<BotFallbackReason, number> = Object.fromEntries(
    FALLBACK_REASONS.map((r) => [r, 0]),
  ) as Record<BotFallbackReason, number>;
  aborted = 0;
  private illegalChoices = 0;
  /** Worker compute time, ms, summed. */
  busyMs = 0;
  private readonly histogram = new MsHistogram();
  private readonly listeners = new Set<(e: BotDecisionEvent) => void>();
  private readonly log = new Logger('Bots');

  constructor(private readonly now: () => number) {}

  onDecision(listener: (e: BotDecisionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Counts an answer and tells the listeners; returns the action. */
  answered(
    level: BotLevel,
    action: GameAction | null,
    outcome: BotDecisionEvent['outcome'],
    boxMs: number | null,
    requested: number,
    deadline: number,
  ): GameAction | null {
    if (outcome === 'worker') this.completed++;
    else if (outcome === 'inline') this.inline++;
    else this.fallbacks[outcome]++;
    if (this.listeners.size > 0) {
      const now = this.now();
      const e: BotDecisionEvent = {
        level,
        outcome,
        timeboxMs: boxMs,
        latencyMs: now - requested,
        lateMs: now - deadline,
      };
      for (const l of this.listeners) {
        try {
          l(e);
        } catch {
          // a metrics listener must never break a decision
        }
      }
    }
    return action;
  }

  /** A worker's search took `ms` of compute. */
  searched(ms: number): void {
    this.busyMs += ms;
    this.histogram.observe(ms);
  }

  /** common's safety net replaced an illegal bot choice (a bot bug): counted and logged. */
  illegalChoice(e: BotFallbackEvent): void {
    this.illegalChoices++;
    this.log.warn(
      `bot ${e.bot} chose an illegal ${e.kind} (${JSON.stringify(e.chosen)}); played ${JSON.stringify(e.used)} instead`,
    );
  }

  stats(): Pick<
    BotPoolStats,
    | 'decisionsTotal'
    | 'completed'
    | 'inlineTotal'
    | 'fallbacksTotal'
    | 'fallbacksByReason'
    | 'aborted'
    | 'illegalChoices'
    | 'busyMsTotal'
    | 'decisionMs'
    | 'decisionMsP50'
    | 'decisionMsP99'
  > {
    const fallbacksTotal = FALLBACK_REASONS.reduce((a, r) => a + this.fallbacks[r], 0);
    return {
      decisionsTotal: this.completed + this.inline + fallbacksTotal,
      completed: this.completed,
      inlineTotal: this.inline,
      fallbacksTotal,
      fallbacksByReason: { ...this.fallbacks },
      aborted: this.aborted,
      illegalChoices: this.illegalChoices,
      busyMsTotal: Math.round(this.busyMs * 100) / 100,
      decisionMs: this.histogram.snapshot(),
      decisionMsP50: this.histogram.quantile(0.5),
      decisionMsP99: this.histogram.quantile(0.99),
    };
  }
}
