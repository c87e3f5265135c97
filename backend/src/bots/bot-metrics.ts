/**
 * The bot pool on `GET /metrics`: gauges read from `pool.stats()` at every scrape (the pool keeps its own
 * counters; the `_total` series are monotonic).
 */
import { Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { BotPool } from './bot-pool';

@Injectable()
export class BotMetrics {
  constructor(pool: BotPool, @Optional() metrics?: MetricsService) {
    if (!metrics) return;
    const g = (name: string, help: string, read: (s: ReturnType<BotPool['stats']>) => number) =>
      metrics.gauge(name, help, () => read(pool.stats()));
    g('spades_bot_workers', 'Bot worker threads', (s) => s.workers);
    g('spades_bot_queue_depth', 'Strong-bot requests waiting for a worker', (s) => s.queueDepth);
    g('spades_bot_in_flight', 'Strong-bot requests being computed', (s) => s.inFlight);
    g('spades_bot_timebox_ms', 'Time box a strong decision starting now would get (ms)', (s) => s.timeboxMs);
    g('spades_bot_budget_ms_per_second', 'Worker CPU budget (ms of search per second)', (s) => s.budgetMsPerSec);
    g(
      'spades_bot_budget_max_ms_per_second',
      'Ceiling of the worker CPU budget: workers × 1000 × utilization',
      (s) => s.maxBudgetMsPerSec,
    );
    g(
      'spades_bot_cpu_idle_cores',
      'Idle CPU of the machine at the bot pool’s last sample (cores)',
      (s) => s.cpuIdleCores ?? 0,
    );
    g(
      'spades_bot_event_loop_utilization',
      'Main thread event loop utilization at the bot pool’s last sample (0..1)',
      (s) => s.eventLoopUtilization ?? 0,
    );
    g('spades_bot_demand_per_second', 'Strong decisions requested per second (recent)', (s) => s.demandPerSec);
    g(
      'spades_bot_decisions_total',
      'Bot decisions answered (worker search + inline + fallback)',
      (s) => s.decisionsTotal,
    );
    g('spades_bot_searched_total', 'Bot decisions answered by a worker search', (s) => s.completed);
    g('spades_bot_fallbacks_total', 'Bot decisions answered by the heuristic fallback', (s) => s.fallbacksTotal);
    g('spades_bot_busy_ms_total', 'Worker CPU used by searches (ms)', (s) => s.busyMsTotal);
    g('spades_bot_decision_ms_p50', 'Median worker compute time per decision, last 1024 (ms)', (s) => s.decisionMsP50);
    g('spades_bot_decision_ms_p99', 'p99 worker compute time per decision, last 1024 (ms)', (s) => s.decisionMsP99);
  }
}
