import {
  aggregateNodes,
  buildResult,
  CLUSTER_KEYS,
  DURABLE_KEYS,
  forwardedSplit,
  chooseBid,
  histogramQuantile,
  parseArgs,
  parseProcStat,
  parsePrometheus,
  parseSchedstat,
  percentile,
  promBuckets,
  promValue,
  readMetrics,
  RawFigures,
  RESULT_KEYS,
  SeatScheduler,
  UsageError,
  ServerFigures,
  viewKeyOf,
} from './stats';

describe('percentile', () => {
  it('uses the nearest rank on unsorted samples', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 90)).toBe(9);
    expect(percentile(xs, 99)).toBe(10);
    expect(percentile(xs, 100)).toBe(10);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile([42], 99)).toBe(42);
  });

  it('is null without samples', () => {
    expect(percentile([], 50)).toBeNull();
  });

  it('p99 of 1..1000 is 990', () => {
    const xs = Array.from({ length: 1000 }, (_x, i) => 1000 - i);
    // the HDR histogram's bucket above 262 ms is 4 us wide: within 0.001 %
    expect(percentile(xs, 99)).toBeCloseTo(990, 2);
    expect(percentile(xs, 95)).toBeCloseTo(950, 2);
  });

  it('keeps sub-millisecond samples in ms (microsecond resolution) and a 0 ms sample as 0.001 ms', () => {
    expect(percentile([0.25, 0.5, 0.75, 1.25], 50)).toBe(0.5);
    expect(percentile([12.3456, 0.1, 7], 100)).toBe(12.346);
    expect(percentile([0, 0, 3], 50)).toBe(0.001);
  });
});

describe('SeatScheduler', () => {
  it('spaces the actions of a table by the interval, starting at its phase', () => {
    const s = new SeatScheduler(1000, 250);
    expect(s.next(0)).toBe(250);
    expect(s.next(300)).toBe(1250); // early turn: waits for the next slot
    expect(s.next(1300)).toBe(2250);
  });

  it('acts at once on a late turn and restarts the schedule from there (no burst)', () => {
    const s = new SeatScheduler(1000);
    expect(s.next(0)).toBe(0);
    expect(s.next(5000)).toBe(5000);
    expect(s.next(5001)).toBe(6000);
  });

  it('interval: each table gets rate/tables actions per second; humans share the table', () => {
    // 2,000 tables at 1,000 actions/s: 0.5 actions/s per table; one human acts once per 4 actions → every 8 s
    expect(SeatScheduler.intervalFor(1000, 2000)).toBe(8000);
    // four humans: one of them every 2 s
    expect(SeatScheduler.intervalFor(1000, 2000, 4)).toBe(2000);
    expect(SeatScheduler.intervalFor(0, 10)).toBe(0);
    const s = new SeatScheduler(0);
    expect(s.next(10)).toBe(10);
    expect(s.next(11)).toBe(11);
  });
});

describe('parseArgs', () => {
  it('defaults: 20 tables, one human, the goal ratio of 0.5 actions/s per table, server defaults', () => {
    const o = parseArgs([]);
    expect(o).toMatchObject({
      tables: 20,
      humans: 1,
      rate: 10,
      seconds: 30,
      db: undefined,
      bots: undefined,
      storm: false,
      clients: 1,
      nodes: 1,
      durableBaseline: false,
    });
  });

  it('--durable-baseline is a switch (the durable echo runs on the database the server ran on)', () => {
    expect(parseArgs(['--durable-baseline'])).toMatchObject({ durableBaseline: true, db: undefined });
    expect(parseArgs(['--db', 'postgres', '--durable-baseline', '--tables', '5'])).toMatchObject({
      durableBaseline: true,
      db: 'postgres',
      tables: 5,
    });
  });

  it('--nodes N > 1 runs on PostgreSQL (forced when --db is not given, refused with pglite)', () => {
    expect(parseArgs(['--nodes', '3'])).toMatchObject({ nodes: 3, db: 'postgres', cluster: true });
    expect(parseArgs(['--nodes=2', '--db', 'postgres'])).toMatchObject({ nodes: 2, db: 'postgres' });
    // one node keeps the server default (PGlite) or what was asked
    expect(parseArgs(['--nodes', '1'])).toMatchObject({ nodes: 1, db: undefined, cluster: false });
    // --cluster: one node in cluster mode (the baseline for the per-node cost), on PostgreSQL
    expect(parseArgs(['--cluster'])).toMatchObject({ nodes: 1, db: 'postgres', cluster: true, http: 'sticky' });
    expect(parseArgs(['--nodes', '3', '--http', 'random'])).toMatchObject({ http: 'random' });
    expect(() => parseArgs(['--http', 'nope'])).toThrow('--http must be sticky or random');
    expect(() => parseArgs(['--cluster', '--db', 'pglite'])).toThrow('--nodes > 1 and --cluster need --db postgres');
    expect(parseArgs(['--nodes', '1', '--db', 'pglite'])).toMatchObject({ nodes: 1, db: 'pglite' });
    expect(() => parseArgs(['--nodes', '3', '--db', 'pglite'])).toThrow(
      '--nodes > 1 and --cluster need --db postgres (the nodes share one PostgreSQL database)',
    );
    expect(() => parseArgs(['--nodes', '0'])).toThrow('--nodes must be an integer between 1 and 16');
    expect(() => parseArgs(['--nodes', '2.5'])).toThrow(UsageError);
    expect(() => parseArgs(['--nodes'])).toThrow('--nodes needs a value');
  });

  it('reads every option (space or = form)', () => {
    const o = parseArgs([
      '--tables',
      '1000',
      '--humans=4',
      '--rate',
      '250',
      '--seconds',
      '60',
      '--db',
      'postgres',
      '--bots',
      'heuristic',
      '--storm',
    ]);
    expect(o).toMatchObject({
      tables: 1000,
      humans: 4,
      rate: 250,
      seconds: 60,
      db: 'postgres',
      bots: 'heuristic',
      storm: true,
    });
    expect(o.clients).toBe(3); // 4,000 sockets: several client processes
  });

  it('refuses bad values and unknown options', () => {
    expect(() => parseArgs(['--humans', '2'])).toThrow(UsageError);
    expect(() => parseArgs(['--db', 'mysql'])).toThrow('--db must be pglite or postgres');
    expect(() => parseArgs(['--bots', 'genius'])).toThrow(UsageError);
    expect(() => parseArgs(['--tables', '0'])).toThrow('--tables must be an integer');
    expect(() => parseArgs(['--tables'])).toThrow('--tables needs a value');
    expect(() => parseArgs(['--table', '3'])).toThrow('unknown option --table');
  });

  it('reads --name=value as well as --name value, and refuses positionals and a value on a switch', () => {
    expect(parseArgs(['--tables=7', '--humans', '4', '--quiet'])).toMatchObject({
      tables: 7,
      humans: 4,
      verbose: false,
    });
    expect(() => parseArgs(['100'])).toThrow('unexpected argument 100');
    expect(() => parseArgs(['--storm=yes'])).toThrow('--storm takes no value');
    expect(() => parseArgs(['--rate', '-1'])).toThrow(UsageError);
  });
});

const METRICS = `# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p99_seconds gauge
nodejs_eventloop_lag_p99_seconds 0.021
# HELP spades_bot_decisions_total Bot decisions.
# TYPE spades_bot_decisions_total counter
spades_bot_decisions_total{level="strong"} 1200
spades_bot_decisions_total{level="heuristic"} 34 1700000000000
# TYPE spades_bot_decision_ms histogram
spades_bot_decision_ms_bucket{le="1",level="strong"} 0
spades_bot_decision_ms_bucket{le="5",level="strong"} 400
spades_bot_decision_ms_bucket{le="10",level="strong"} 1000
spades_bot_decision_ms_bucket{le="+Inf",level="strong"} 1200
spades_bot_decision_ms_sum{level="strong"} 9000
spades_bot_decision_ms_count{level="strong"} 1200
# TYPE spades_action_ack_ms histogram
spades_action_ack_ms_bucket{le="5",kind="human"} 90
spades_action_ack_ms_bucket{le="50",kind="human"} 99
spades_action_ack_ms_bucket{le="+Inf",kind="human"} 100
spades_action_ack_ms_bucket{le="5",kind="server"} 0
spades_action_ack_ms_bucket{le="50",kind="server"} 0
spades_action_ack_ms_bucket{le="+Inf",kind="server"} 900
# TYPE spades_db_write_ms histogram
spades_db_write_ms_bucket{le="2"} 10
spades_db_write_ms_bucket{le="+Inf"} 10
# TYPE spades_db_wait_ms histogram
spades_db_wait_ms_bucket{le="3",kind="human"} 40
spades_db_wait_ms_bucket{le="100",kind="human"} 50
spades_db_wait_ms_bucket{le="+Inf",kind="human"} 50
spades_db_wait_ms_bucket{le="3",kind="bot"} 0
spades_db_wait_ms_bucket{le="100",kind="bot"} 0
spades_db_wait_ms_bucket{le="+Inf",kind="bot"} 700
http_requests{path="/a b",note="say \\"hi\\""} 3
`;

describe('Prometheus text', () => {
  it('parses names, labels (escaped quotes, spaces) and values; skips comments; ignores timestamps', () => {
    const s = parsePrometheus(METRICS);
    expect(promValue(s, 'nodejs_eventloop_lag_p99_seconds')).toBe(0.021);
    expect(promValue(s, 'spades_bot_decisions_total')).toBe(1234);
    expect(promValue(s, 'spades_bot_decisions_total', { level: 'strong' })).toBe(1200);
    expect(s.find((x) => x.name === 'http_requests')?.labels).toEqual({ path: '/a b', note: 'say "hi"' });
    expect(promValue(s, 'missing_metric')).toBeNull();
  });

  it('histogram buckets and quantiles between two scrapes', () => {
    const after = promBuckets(parsePrometheus(METRICS), 'spades_bot_decision_ms');
    expect(after).toEqual([
      { le: 1, count: 0 },
      { le: 5, count: 400 },
      { le: 10, count: 1000 },
      { le: Infinity, count: 1200 },
    ]);
    // since start: 600th of 1200 observations is in (5, 10]: 5 + 5 * (600 - 400) / 600
    expect(histogramQuantile([], after, 0.5)).toBeCloseTo(5 + 5 / 3, 6);
    // between scrapes: only the new observations count
    const before = [
      { le: 1, count: 0 },
      { le: 5, count: 400 },
      { le: 10, count: 400 },
      { le: Infinity, count: 400 },
    ];
    expect(histogramQuantile(before, after, 0.5)).toBeCloseTo(5 + 5 * (400 / 600), 6);
    expect(histogramQuantile(after, after, 0.5)).toBeNull();
  });

  it('readMetrics picks the harness figures, null when a server has none', () => {
    const m = readMetrics(METRICS, 1);
    expect(m.eventLoopP99Seconds).toBe(0.021);
    expect(m.botDecisions).toBe(1234);
    expect(m.botMsBuckets).toHaveLength(4);
    // the command histogram of human commands only (the server's own commands are left out)
    expect(m.commandMsBuckets).toEqual([
      { le: 5, count: 90 },
      { le: 50, count: 99 },
      { le: Infinity, count: 100 },
    ]);
    expect(m.dbWriteMsBuckets).toEqual([
      { le: 2, count: 10 },
      { le: Infinity, count: 10 },
    ]);
    // the write wait of human commands only (the bots' writes are left out)
    expect(m.dbWaitMsBuckets).toEqual([
      { le: 3, count: 40 },
      { le: 100, count: 50 },
      { le: Infinity, count: 50 },
    ]);
    const none = readMetrics('# nothing here\nprocess_cpu_seconds_total 3\n', 2);
    expect(none).toEqual({
      at: 2,
      eventLoopP99Seconds: null,
      botDecisions: null,
      botMsBuckets: [],
      botMsSummaryP50: null,
      commandMsBuckets: [],
      dbWriteMsBuckets: [],
      dbWaitMsBuckets: [],
    });
    const summary = readMetrics(
      'spades_bot_decision_ms{quantile="0.5"} 4.5\nspades_bot_decision_ms{quantile="0.99"} 40\n',
      3,
    );
    expect(summary.botMsSummaryP50).toBe(4.5);
  });
});

describe('parseProcStat', () => {
  it('reads utime + stime and rss, also with spaces and parentheses in the command name', () => {
    const fields = [
      'S',
      '1',
      '2',
      '3',
      '0',
      '-1',
      '4194304',
      '100',
      '0',
      '0',
      '0',
      '250',
      '50',
      '0',
      '0',
      '20',
      '0',
      '11',
      '0',
      '12345',
      '987654321',
      '21504',
    ];
    expect(parseProcStat(`4242 (node) ${fields.join(' ')} 18446744073709551615 1 1`)).toEqual({
      cpuTicks: 300,
      rssPages: 21504,
    });
    expect(parseProcStat(`4242 (my (odd) name) ${fields.join(' ')} 0`)).toEqual({ cpuTicks: 300, rssPages: 21504 });
  });
});

describe('parseSchedstat', () => {
  it('reads the run-queue wait (ns) of a thread, the second field', () => {
    expect(parseSchedstat('123456789 98765432 4321\n')).toEqual({ waitNs: 98765432 });
    expect(() => parseSchedstat('')).toThrow('not a schedstat line');
    expect(() => parseSchedstat('12 x 3')).toThrow('not a schedstat line');
  });
});

describe('buildResult', () => {
  /** Figures of a small run: 100 acks of 1..100 ms, an echo of 0.1..10 ms. */
  const run: RawFigures = {
    tables: 2,
    sockets: 2,
    actions: 120,
    windowSeconds: 10,
    ackMs: Array.from({ length: 100 }, (_x, i) => i + 1),
    updateMs: [3, 4, 5],
    baselineAckMs: Array.from({ length: 100 }, (_x, i) => (i + 1) / 10),
    eventLoopP99Ms: 12.345,
    serverRssMB: 512.6,
    serverCpuPct: 87.4,
    botDecisionsPerSecond: 9.04,
    botMsP50: null,
    commandP99Ms: 30.04,
    dbWriteP99Ms: null,
    mainThreadCpuPct: 71.6,
    mainThreadWaitMsPerS: 212.4,
    dbWaitP99Ms: 25.06,
    errors: 0,
  };

  it('has exactly the issue fields in order, rounded, with p99Ratio = ack p99 / echo p99', () => {
    const r = buildResult(run);
    expect(Object.keys(r)).toEqual([...RESULT_KEYS]);
    expect(r).toEqual({
      tables: 2,
      sockets: 2,
      actionsPerSecond: 12,
      ackP50Ms: 50,
      ackP95Ms: 95,
      ackP99Ms: 99,
      updateP99Ms: 5,
      baselineP99Ms: 9.9,
      p99Ratio: 10,
      eventLoopP99Ms: 12.3,
      serverRssMB: 513,
      serverCpuPct: 87,
      botDecisionsPerSecond: 9,
      botMsP50: null,
      errors: 0,
      nodes: 1,
      cpuPctPerTable: 43.7,
      commandP99Ms: 30,
      dbWriteP99Ms: null,
      mainThreadCpuPct: 72,
      mainThreadWaitMsPerS: 212,
      dbWaitP99Ms: 25.1,
      fanoutBytesPerAction: null,
      fanoutBytesPerActionByEvent: null,
    });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('fan-out bytes per action: in total and by event, the largest first', () => {
    const r = buildResult({ ...run, rxBytes: { clear_trick: 1_200, game_update: 240_000, chat_message: 0 } });
    expect(r.fanoutBytesPerAction).toBe(2010);
    expect(Object.entries(r.fanoutBytesPerActionByEvent ?? {})).toEqual([
      ['game_update', 2000],
      ['clear_trick', 10],
      ['chat_message', 0],
    ]);
    expect(buildResult({ ...run, actions: 0, rxBytes: { game_update: 5 } }).fanoutBytesPerAction).toBeNull();
  });

  it('--durable-baseline adds the durable echo p99 and ack p99 over it, after stormRecoveryMs', () => {
    const r = buildResult({
      ...run,
      durableBaselineAckMs: Array.from({ length: 100 }, (_x, i) => (i + 1) / 3),
      stormRecoveryMs: 10,
    });
    expect(Object.keys(r)).toEqual([...RESULT_KEYS, 'stormRecoveryMs', ...DURABLE_KEYS]);
    expect(r).toMatchObject({
      ackP99Ms: 99,
      baselineP99Ms: 9.9,
      p99Ratio: 10,
      durableBaselineP99Ms: 33,
      durableP99Ratio: 3,
    });
    // no durable samples: null figures, not NaN
    expect(buildResult({ ...run, durableBaselineAckMs: [] })).toMatchObject({
      durableBaselineP99Ms: null,
      durableP99Ratio: null,
    });
  });

  it('storm runs add stormRecoveryMs; no samples give nulls, not NaN', () => {
    const r = buildResult({
      tables: 1,
      sockets: 4,
      actions: 0,
      windowSeconds: 5,
      ackMs: [],
      updateMs: [],
      baselineAckMs: [],
      eventLoopP99Ms: null,
      serverRssMB: null,
      serverCpuPct: null,
      botDecisionsPerSecond: null,
      botMsP50: null,
      commandP99Ms: null,
      dbWriteP99Ms: null,
      mainThreadCpuPct: null,
      mainThreadWaitMsPerS: null,
      dbWaitP99Ms: null,
      errors: 3,
      stormRecoveryMs: 1234.56,
    });
    expect(Object.keys(r)).toEqual([...RESULT_KEYS, 'stormRecoveryMs']);
    expect(r).toMatchObject({
      actionsPerSecond: 0,
      ackP99Ms: null,
      p99Ratio: null,
      errors: 3,
      stormRecoveryMs: 1235,
      cpuPctPerTable: null,
      mainThreadCpuPct: null,
      mainThreadWaitMsPerS: null,
      dbWaitP99Ms: null,
    });
  });

  it('several nodes add perNode, the forwarded share and the local / forwarded ack p99 after the usual keys', () => {
    const r = buildResult({
      tables: 300,
      sockets: 300,
      actions: 1500,
      windowSeconds: 10,
      ackMs: [10, 20],
      updateMs: [30],
      baselineAckMs: [1],
      eventLoopP99Ms: 40,
      serverRssMB: 900.4,
      serverCpuPct: 150.4,
      botDecisionsPerSecond: 110,
      botMsP50: 1,
      commandP99Ms: 12,
      dbWriteP99Ms: 3,
      mainThreadCpuPct: 60,
      mainThreadWaitMsPerS: 90,
      dbWaitP99Ms: 8,
      errors: 0,
      nodes: 3,
      cluster: {
        perNode: [
          { nodeId: 'n1', tables: 100, rssMB: 300.2, cpuPct: 50.2, eventLoopP99Ms: 40.04 },
          { nodeId: 'n2', tables: 150, rssMB: 310, cpuPct: 60.6, eventLoopP99Ms: 20 },
          { nodeId: 'n3', tables: 50, rssMB: 290.2, cpuPct: 39.6, eventLoopP99Ms: null },
        ],
        forwardedShare: 2 / 3,
        ackP99LocalMs: 10.04,
        ackP99ForwardedMs: 20.06,
      },
    });
    expect(Object.keys(r)).toEqual([...RESULT_KEYS, ...CLUSTER_KEYS]);
    expect(r).toMatchObject({
      nodes: 3,
      serverCpuPct: 150,
      cpuPctPerTable: 0.501, // 150.4 % over 300 tables
      perNode: [
        // cpuPctPerTable: the node's own CPU over its own tables
        { nodeId: 'n1', tables: 100, rssMB: 300, cpuPct: 50, eventLoopP99Ms: 40, cpuPctPerTable: 0.502 },
        { nodeId: 'n2', tables: 150, rssMB: 310, cpuPct: 61, eventLoopP99Ms: 20, cpuPctPerTable: 0.404 },
        { nodeId: 'n3', tables: 50, rssMB: 290, cpuPct: 40, eventLoopP99Ms: null, cpuPctPerTable: 0.792 },
      ],
      forwardedShare: 0.667,
      ackP99LocalMs: 10,
      ackP99ForwardedMs: 20.1,
    });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});

describe('several nodes', () => {
  const node = (f: Partial<ServerFigures>): ServerFigures => ({
    serverRssMB: 100,
    serverCpuPct: 10,
    eventLoopP99Ms: 5,
    botDecisionsPerSecond: 1,
    botMsP50: 1,
    botMsDelta: [],
    commandP99Ms: null,
    dbWriteP99Ms: null,
    dbWaitP99Ms: null,
    commandMsDelta: [],
    dbWriteMsDelta: [],
    dbWaitMsDelta: [],
    mainThreadCpuPct: null,
    mainThreadWaitMsPerS: null,
    ...f,
  });

  it('sums RSS, CPU and bot decisions, keeps the worst event loop and merges the bot histograms', () => {
    const a = aggregateNodes([
      node({
        serverRssMB: 300,
        serverCpuPct: 40,
        eventLoopP99Ms: 12,
        botDecisionsPerSecond: 10,
        botMsP50: 2,
        // 10 decisions ≤ 1 ms, 10 more ≤ 4 ms
        botMsDelta: [
          { le: 1, count: 10 },
          { le: 4, count: 20 },
          { le: Infinity, count: 20 },
        ],
      }),
      node({
        serverRssMB: 250,
        serverCpuPct: 35,
        eventLoopP99Ms: 30,
        botDecisionsPerSecond: 5,
        botMsP50: 3,
        // 30 decisions, all between 1 and 4 ms
        botMsDelta: [
          { le: 1, count: 0 },
          { le: 4, count: 30 },
          { le: Infinity, count: 30 },
        ],
      }),
    ]);
    expect(a).toMatchObject({ serverRssMB: 550, serverCpuPct: 75, eventLoopP99Ms: 30, botDecisionsPerSecond: 15 });
    // merged: 10 ≤ 1 ms, 50 ≤ 4 ms; the median (25th of 50) is 15/40 of the way from 1 to 4 ms
    expect(a.botMsDelta).toEqual([
      { le: 1, count: 10 },
      { le: 4, count: 50 },
      { le: Infinity, count: 50 },
    ]);
    expect(a.botMsP50).toBeCloseTo(1 + (3 * 15) / 40, 6);
  });

  it('takes the command and commit p99 from the merged histograms, not from one node', () => {
    // node a: 99 fast commands (≤ 5 ms) and 1 slow; node b: 100 commands between 50 and 100 ms
    const a = aggregateNodes([
      node({
        commandP99Ms: 5,
        commandMsDelta: [
          { le: 5, count: 99 },
          { le: 50, count: 99 },
          { le: 100, count: 100 },
          { le: Infinity, count: 100 },
        ],
        dbWriteMsDelta: [
          { le: 2, count: 10 },
          { le: Infinity, count: 10 },
        ],
        dbWaitMsDelta: [
          { le: 3, count: 100 },
          { le: 300, count: 100 },
          { le: Infinity, count: 100 },
        ],
      }),
      node({
        commandP99Ms: 99.5,
        commandMsDelta: [
          { le: 5, count: 0 },
          { le: 50, count: 0 },
          { le: 100, count: 100 },
          { le: Infinity, count: 100 },
        ],
        dbWriteMsDelta: [
          { le: 2, count: 0 },
          { le: Infinity, count: 0 },
        ],
        dbWaitMsDelta: [
          { le: 3, count: 0 },
          { le: 300, count: 100 },
          { le: Infinity, count: 100 },
        ],
      }),
    ]);
    // merged: 99 ≤ 5 ms, 200 ≤ 100 ms; the 198th observation is 99/101 of the way from 50 to 100 ms
    expect(a.commandP99Ms).toBeCloseTo(50 + (50 * 99) / 101, 6);
    expect(a.commandMsDelta).toEqual([
      { le: 5, count: 99 },
      { le: 50, count: 99 },
      { le: 100, count: 200 },
      { le: Infinity, count: 200 },
    ]);
    // 10 commits, all ≤ 2 ms (only node a wrote)
    expect(a.dbWriteP99Ms).toBeCloseTo(1.98, 6);
    // write waits: 100 ≤ 3 ms on a, 100 between 3 and 300 ms on b; the 198th of 200 is 98/100 of the way up b's bucket
    expect(a.dbWaitP99Ms).toBeCloseTo(3 + (297 * 98) / 100, 6);
    // no histogram anywhere: null, not 0
    expect(aggregateNodes([node({}), node({})])).toMatchObject({
      commandP99Ms: null,
      dbWriteP99Ms: null,
      dbWaitP99Ms: null,
    });
  });

  it('a sum is null when one node has no figure; without histograms the bot p50 is the mean of the medians', () => {
    const a = aggregateNodes([node({ serverRssMB: null, botMsP50: 2 }), node({ eventLoopP99Ms: null, botMsP50: 4 })]);
    expect(a).toMatchObject({ serverRssMB: null, serverCpuPct: 20, eventLoopP99Ms: 5, botMsP50: 3 });
    expect(aggregateNodes([node({ eventLoopP99Ms: null, botMsP50: null })])).toMatchObject({
      eventLoopP99Ms: null,
      botMsP50: null,
    });
  });

  it("keeps the busiest main thread's CPU and the longest run-queue wait (null only when no node has them)", () => {
    const a = aggregateNodes([
      node({ mainThreadCpuPct: 40, mainThreadWaitMsPerS: 250 }),
      node({ mainThreadCpuPct: 75, mainThreadWaitMsPerS: 120 }),
      node({}),
    ]);
    expect(a).toMatchObject({ mainThreadCpuPct: 75, mainThreadWaitMsPerS: 250 });
    expect(aggregateNodes([node({}), node({})])).toMatchObject({ mainThreadCpuPct: null, mainThreadWaitMsPerS: null });
  });

  it('splits the timed actions by whether the socket was on the owner of its table', () => {
    const owners = new Map<string, string | null>([
      ['g1', 'n1'],
      ['g2', 'n2'],
      ['g3', null],
    ]);
    const split = forwardedSplit(
      [
        { ms: 5, gameId: 'g1', node: 'n1' },
        { ms: 7, gameId: 'g2', node: 'n2' },
        { ms: 40, gameId: 'g1', node: 'n2' },
        { ms: 50, gameId: 'g2', node: 'n3' },
        { ms: 60, gameId: 'g2', node: 'n1' },
        // no known owner (closed, or unknown): left out
        { ms: 999, gameId: 'g3', node: 'n1' },
        { ms: 999, gameId: 'g4', node: 'n1' },
      ],
      owners,
    );
    expect(split).toEqual({ forwardedShare: 0.6, ackP99LocalMs: 7, ackP99ForwardedMs: 60 });
    expect(forwardedSplit([], owners)).toEqual({ forwardedShare: null, ackP99LocalMs: null, ackP99ForwardedMs: null });
  });
});

describe('storm view comparison and bids', () => {
  const view = {
    handNumber: 3,
    hands: [
      [
        { suit: 'S', rank: 14 },
        { suit: 'H', rank: 2 },
      ],
      [],
      [],
      [],
    ],
    bidding: { bids: [3, 4, null, null] },
    play: { trickPending: false, currentTrick: [{ playerIndex: 1, suit: 'D', rank: 9 }] },
    currentPlayerIndex: 2,
  };

  it('keys a view by hand, bids, trick and turn (spectators have no hand)', () => {
    expect(viewKeyOf(view, 0)).toEqual({
      handNumber: 3,
      hand: ['H2', 'S14'],
      bids: [3, 4, null, null],
      trick: ['1:D9'],
      turn: 2,
    });
    expect(viewKeyOf(view, null).hand).toEqual([]);
    expect(viewKeyOf({ ...view, play: { trickPending: true, currentTrick: view.play.currentTrick } }, 0).trick).toEqual(
      [],
    );
  });

  it('another turn, bid or card is a different view', () => {
    const k = JSON.stringify(viewKeyOf(view, 0));
    expect(JSON.stringify(viewKeyOf({ ...view, currentPlayerIndex: 3 }, 0))).not.toBe(k);
    expect(JSON.stringify(viewKeyOf({ ...view, bidding: { bids: [3, 4, 2, null] } }, 0))).not.toBe(k);
    expect(JSON.stringify(viewKeyOf({ ...view, hands: [[{ suit: 'S', rank: 14 }], [], [], []] }, 0))).not.toBe(k);
  });

  it('bids the legal value closest to the hand estimate, not nil unless it is the only bid', () => {
    const strong = [
      { suit: 'S', rank: 14 },
      { suit: 'S', rank: 13 },
      { suit: 'S', rank: 12 },
      { suit: 'H', rank: 14 },
      { suit: 'D', rank: 13 },
    ];
    const all = Array.from({ length: 14 }, (_x, i) => i);
    expect(chooseBid(strong, all)).toBe(5);
    expect(chooseBid([{ suit: 'H', rank: 2 }], all)).toBe(1);
    expect(chooseBid(strong, [0])).toBe(0);
    expect(chooseBid(strong, [0, 4])).toBe(4);
  });
});
