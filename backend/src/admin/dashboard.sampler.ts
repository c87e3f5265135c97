/**
 * The dashboard's activity figures (issue #25) from the server's own Prometheus metrics: every
 * DASHBOARD_SAMPLE_SECONDS this node keeps a cumulative sample of `spades_actions_total` (outcome ok) and of the
 * players' `spades_action_ack_ms` histogram (kind human) for DASHBOARD_WINDOW_MINUTES. Rates and the p99 come
 * from the differences between samples (pure functions below), summed over the nodes of a cluster.
 */
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DASHBOARD_SAMPLE_SECONDS, DASHBOARD_WINDOW_MINUTES } from '@spades/common';
import type { DashboardPoint, DashboardWindow } from '@spades/common';
import { MetricsService } from '../metrics/metrics.service';

/** Cumulative counters of one node at one time. */
export interface MetricSample {
  /** epoch ms */
  at: number;
  /** Table commands applied (outcome ok), all kinds. */
  actions: number;
  /** Cumulative count per ack bucket (same order as `bounds`; the last one is +Inf). */
  ackBuckets: number[];
}

/** What one node reports to the dashboard. */
export interface NodeActivity {
  nodeId: string;
  /** Upper bounds (ms) of the ack buckets, +Inf last (as Infinity → serialised as null: see `boundsOf`). */
  bounds: (number | null)[];
  /** Oldest first; the last one is taken at the request. */
  samples: MetricSample[];
  sockets: number | null;
  eventLoopP99Ms: number | null;
  rssMB: number | null;
}

const KEEP = Math.ceil((DASHBOARD_WINDOW_MINUTES * 60) / DASHBOARD_SAMPLE_SECONDS) + 1;

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

@Injectable()
export class DashboardSampler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly samples: MetricSample[] = [];
  private bounds: (number | null)[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(@Optional() private readonly metrics?: MetricsService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), DASHBOARD_SAMPLE_SECONDS * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Takes and keeps a sample now (the timer's tick; tests call it to close an interval). */
  async sample(now = Date.now()): Promise<MetricSample> {
    const s = await this.read(now);
    this.samples.push(s);
    if (this.samples.length > KEEP) this.samples.splice(0, this.samples.length - KEEP);
    return s;
  }

  /** This node's figures: the kept samples plus one taken now (not kept). */
  async activity(nodeId: string, now = Date.now()): Promise<NodeActivity> {
    const current = await this.read(now);
    const rss = await this.gauge('process_resident_memory_bytes');
    const lag = await this.gauge('nodejs_eventloop_lag_p99_seconds');
    return {
      nodeId,
      bounds: this.bounds,
      samples: [...this.samples, current],
      sockets: await this.gauge('spades_sockets'),
      eventLoopP99Ms: lag === null ? null : round1(lag * 1000),
      rssMB: rss === null ? null : Math.round(rss / 1048576),
    };
  }

  private async read(at: number): Promise<MetricSample> {
    if (!this.metrics) return { at, actions: 0, ackBuckets: [] };
    const actions = ((await this.metrics.actions.get()).values as MetricValue[])
      .filter((v) => v.labels.outcome === 'ok')
      .reduce((a, v) => a + v.value, 0);
    const per = new Map<number, number>();
    for (const v of (await this.metrics.ackLatency.get()).values as MetricValue[]) {
      if (!v.metricName?.endsWith('_bucket') || v.labels.kind !== 'human') continue;
      const le = v.labels.le === '+Inf' ? Infinity : Number(v.labels.le);
      per.set(le, (per.get(le) ?? 0) + v.value);
    }
    const les = [...per.keys()].sort((a, b) => a - b);
    if (les.length) this.bounds = les.map((b) => (Number.isFinite(b) ? b : null));
    return { at, actions, ackBuckets: les.map((b) => per.get(b)!) };
  }

  private async gauge(name: string): Promise<number | null> {
    const m = this.metrics?.registry.getSingleMetric(name);
    if (!m) return null;
    const vals = (await m.get()).values as MetricValue[];
    return vals.length ? vals.reduce((a, v) => a + v.value, 0) : null;
  }
}

// ------------------------------------------------------------------ pure: rates and percentiles

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** p99 (bucket upper bound, ms) of bucket count deltas; +Inf answers the largest finite bound; null without data. */
export function p99(bounds: (number | null)[], counts: number[]): number | null {
  const total = counts.length ? counts[counts.length - 1] : 0;
  if (total <= 0) return null;
  const target = Math.ceil(total * 0.99);
  const i = counts.findIndex((c) => c >= target);
  const finite = bounds.filter((b): b is number => b !== null);
  const b = bounds[i];
  return b === null || b === undefined ? (finite[finite.length - 1] ?? null) : b;
}

function diff(a: MetricSample, b: MetricSample): { seconds: number; actions: number; buckets: number[] } {
  return {
    seconds: Math.max(0.001, (b.at - a.at) / 1000),
    // a restarted process starts its counters again: never a negative rate
    actions: Math.max(0, b.actions - a.actions),
    buckets: b.ackBuckets.map((c, i) => Math.max(0, c - (a.ackBuckets[i] ?? 0))),
  };
}

function addInto(into: number[], add: number[]): number[] {
  const out = into.length >= add.length ? into.slice() : add.map((_, i) => into[i] ?? 0);
  add.forEach((v, i) => (out[i] += v));
  return out;
}

/** Summary over the last `minutes`, every node together. */
export function windowOf(nodes: NodeActivity[], minutes: number, now: number): DashboardWindow {
  const cutoff = now - minutes * 60_000;
  let rate = 0;
  let buckets: number[] = [];
  let bounds: (number | null)[] = [];
  for (const n of nodes) {
    if (n.samples.length < 2) continue;
    const last = n.samples[n.samples.length - 1];
    const from = n.samples.find((s) => s.at >= cutoff - (DASHBOARD_SAMPLE_SECONDS * 1000) / 2) ?? n.samples[0];
    if (from === last) continue;
    const d = diff(from, last);
    rate += d.actions / d.seconds;
    buckets = addInto(buckets, d.buckets);
    if (n.bounds.length > bounds.length) bounds = n.bounds;
  }
  return {
    minutes,
    actionsPerSecond: round1(rate),
    ackP99Ms: p99(bounds, buckets),
    acks: buckets.length ? buckets[buckets.length - 1] : 0,
  };
}

/** One point per sample interval (binned by wall clock), every node together, oldest first. */
export function seriesOf(nodes: NodeActivity[]): DashboardPoint[] {
  const step = DASHBOARD_SAMPLE_SECONDS * 1000;
  const bins = new Map<number, { rate: number; buckets: number[]; bounds: (number | null)[] }>();
  for (const n of nodes) {
    // one node's intervals ending in the same bin are added up first (a rate per node), then the nodes' rates
    const mine = new Map<number, { seconds: number; actions: number; buckets: number[] }>();
    for (let i = 1; i < n.samples.length; i++) {
      const d = diff(n.samples[i - 1], n.samples[i]);
      const key = Math.ceil(n.samples[i].at / step) * step;
      const m = mine.get(key) ?? { seconds: 0, actions: 0, buckets: [] };
      m.seconds += d.seconds;
      m.actions += d.actions;
      m.buckets = addInto(m.buckets, d.buckets);
      mine.set(key, m);
    }
    for (const [key, m] of mine) {
      const bin = bins.get(key) ?? { rate: 0, buckets: [], bounds: n.bounds };
      bin.rate += m.actions / m.seconds;
      bin.buckets = addInto(bin.buckets, m.buckets);
      if (n.bounds.length > bin.bounds.length) bin.bounds = n.bounds;
      bins.set(key, bin);
    }
  }
  return [...bins.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([at, b]) => ({
      at: new Date(at).toISOString(),
      actionsPerSecond: round1(b.rate),
      ackP99Ms: p99(b.bounds, b.buckets),
    }));
}
