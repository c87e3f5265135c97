/** Reading a server's /metrics: the Prometheus text, its samples and histogram buckets, one snapshot of the figures. */
/** One sample of a Prometheus text exposition: name, labels, value. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text format 0.0.4 (comments skipped; timestamps ignored). */
export function parsePrometheus(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    let name: string;
    const labels: Record<string, string> = {};
    let rest: string;
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    if (brace >= 0 && (space < 0 || brace < space)) {
      name = line.slice(0, brace);
      let i = brace + 1;
      while (i < line.length && line[i] !== '}') {
        const eq = line.indexOf('=', i);
        if (eq < 0) break;
        const key = line.slice(i, eq).trim().replace(/^,/, '').trim();
        if (line[eq + 1] !== '"') break;
        let j = eq + 2;
        let val = '';
        while (j < line.length && line[j] !== '"') {
          if (line[j] === '\\' && j + 1 < line.length) {
            const c = line[j + 1];
            val += c === 'n' ? '\n' : c;
            j += 2;
          } else val += line[j++];
        }
        labels[key] = val;
        i = j + 1;
        while (i < line.length && (line[i] === ',' || line[i] === ' ')) i++;
      }
      rest = line.slice(line.indexOf('}', i) + 1).trim();
    } else {
      if (space < 0) continue;
      name = line.slice(0, space);
      rest = line.slice(space + 1).trim();
    }
    const valueText = rest.split(/\s+/)[0];
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    if (name && !Number.isNaN(value)) out.push({ name, labels, value });
  }
  return out;
}

/** Sum of every sample called `name` whose labels include `match` (null when there is none). */
export function promValue(
  samples: readonly PromSample[],
  name: string,
  match: Record<string, string> = {},
): number | null {
  let found = false;
  let sum = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    found = true;
    sum += s.value;
  }
  return found ? sum : null;
}

/**
 * Cumulative histogram buckets `<name>_bucket{le}` summed over other labels (those in `match` must equal its
 * values), sorted by bound.
 */
export function promBuckets(samples: readonly PromSample[], name: string, match: Record<string, string> = {}): Buckets {
  const by = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${name}_bucket` || s.labels.le === undefined) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    by.set(le, (by.get(le) ?? 0) + s.value);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count }));
}

/**
 * Quantile q (0..1) of a histogram's observations between two scrapes (`before` may be empty: since start),
 * linear inside the bucket like PromQL's histogram_quantile. null without observations.
 */
export function histogramQuantile(before: Readonly<Buckets>, after: Readonly<Buckets>, q: number): number | null {
  const delta = bucketsDelta(before, after);
  const total = delta.length ? delta[delta.length - 1].count : 0;
  if (total <= 0) return null;
  const target = q * total;
  let lowerLe = 0;
  let lowerCount = 0;
  for (const b of delta) {
    if (b.count >= target) {
      if (b.le === Infinity) return lowerLe;
      const inBucket = b.count - lowerCount;
      return inBucket > 0 ? lowerLe + ((b.le - lowerLe) * (target - lowerCount)) / inBucket : b.le;
    }
    lowerLe = b.le;
    lowerCount = b.count;
  }
  return lowerLe;
}

/** What the harness reads from `GET /metrics` at one moment (every field null when the server has no such metric). */
export interface MetricsSnapshot {
  at: number;
  /** prom-client default metric (seconds), as of this scrape. */
  eventLoopP99Seconds: number | null;
  botDecisions: number | null;
  botMsBuckets: Buckets;
  /** Summary quantile 0.5 when the bot time is a summary. */
  botMsSummaryP50: number | null;
  /** `spades_action_ack_ms{kind="human"}`: a human command inside the server, from its table's queue to its answer. */
  commandMsBuckets: Buckets;
  /** `spades_db_write_ms`: one group commit of the table store. */
  dbWriteMsBuckets: Buckets;
  /** `spades_db_wait_ms{kind="human"}`: a human command's write, from its queueing in the store to its commit. */
  dbWaitMsBuckets: Buckets;
}

/** Cumulative histogram buckets (`le` = upper bound, Infinity last). */
export type Buckets = { le: number; count: number }[];

/** The observations between two scrapes of a cumulative histogram (`before` may be empty: since start). */
export function bucketsDelta(before: Readonly<Buckets>, after: Readonly<Buckets>): Buckets {
  const prev = new Map(before.map((b) => [b.le, b.count]));
  return after.map((b) => ({ le: b.le, count: b.count - (prev.get(b.le) ?? 0) }));
}

/** The buckets of several histograms added up (several nodes), sorted by bound. */
export function mergeBuckets(all: readonly Buckets[]): Buckets {
  const merged = new Map<number, number>();
  for (const buckets of all) for (const b of buckets) merged.set(b.le, (merged.get(b.le) ?? 0) + b.count);
  return [...merged.entries()].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count }));
}

export function readMetrics(text: string, at: number): MetricsSnapshot {
  const s = parsePrometheus(text);
  return {
    at,
    eventLoopP99Seconds: promValue(s, 'nodejs_eventloop_lag_p99_seconds'),
    botDecisions: promValue(s, 'spades_bot_decisions_total'),
    botMsBuckets: promBuckets(s, 'spades_bot_decision_ms'),
    // a summary quantile, else the pool's own median gauge (spades_bot_decision_ms_p50)
    botMsSummaryP50:
      promValue(s, 'spades_bot_decision_ms', { quantile: '0.5' }) ?? promValue(s, 'spades_bot_decision_ms_p50'),
    commandMsBuckets: promBuckets(s, 'spades_action_ack_ms', { kind: 'human' }),
    dbWriteMsBuckets: promBuckets(s, 'spades_db_write_ms'),
    dbWaitMsBuckets: promBuckets(s, 'spades_db_wait_ms', { kind: 'human' }),
  };
}
