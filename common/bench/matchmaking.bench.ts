/**
 * `npm run bench:matchmaking -- --players 1000 --rate 10 --team-share 0.2`: N simulated players with known ratings
 * (normal around 1500, sd 250) arrive at `rate` a second into quick play (mode/pace/stake mixed like a small
 * community: 70 % PARTNERS, 80 % normal pace, 70/25/5 % low/mid/high stakes; `team-share` of the PARTNERS arrivals
 * as teams of two); the matcher runs every `tick` ms of simulated time; a ticket offered bots takes them. The last
 * line is JSON: wait p50/p95 (s), rating spread per table p50/p95, share of tables filled with bots, matcher CPU ms
 * per simulated second (and the peak queue length).
 */
import { DEFAULT_MATCHMAKING_CONFIG, EMPTY_QUEUE, matchStep, mulberry32, QueueState, QueueTicket } from '../src';
import { benchArgs } from './args';

// common has no Node types (no I/O in the library); the bench runs under tsx on Node
declare const process: {
  argv: string[];
  cpuUsage(prev?: { user: number; system: number }): { user: number; system: number };
};
declare const console: { log(...args: unknown[]): void };

const args = benchArgs(['players', 'rate', 'team-share', 'tick', 'seed']);
function arg(name: string, fallback: number): number {
  const v = Number(args.text(name, ''));
  return args.text(name, '') !== '' && Number.isFinite(v) ? v : fallback;
}

const players = arg('players', 1000);
const rate = arg('rate', 10);
const teamShare = arg('team-share', 0.2);
const tick = arg('tick', 1000);
const seed = arg('seed', 28);
const rng = mulberry32(seed);
const normal = () => Math.sqrt(-2 * Math.log(rng() || 1e-9)) * Math.cos(2 * Math.PI * rng());
const pick = <T>(xs: [T, number][]): T => {
  let r = rng();
  for (const [x, p] of xs) if ((r -= p) < 0) return x;
  return xs[xs.length - 1]![0];
};

const tickets: QueueTicket[] = [];
let made = 0;
for (let i = 0; made < players; i++) {
  const mode = pick<'PARTNERS' | 'SOLO'>([
    ['PARTNERS', 0.7],
    ['SOLO', 0.3],
  ]);
  const team = mode === 'PARTNERS' && made + 2 <= players && rng() < teamShare;
  const n = team ? 2 : 1;
  const rating = () => Math.round(1500 + 250 * normal());
  tickets.push({
    id: `t${i}`,
    players: Array.from({ length: n }, (_, k) => ({ userId: `u${i}_${k}`, rating: rating() })),
    mode,
    pace: pick<'normal' | 'fast'>([
      ['normal', 0.8],
      ['fast', 0.2],
    ]),
    stake: pick([
      [100_000, 0.7],
      [1_000_000, 0.25],
      [10_000_000, 0.05],
    ]),
    joinedAt: Math.round((made / rate) * 1000),
  });
  made += n;
}

const waits: number[] = [];
const spreads: number[] = [];
let humanTables = 0;
let botTables = 0;
let cpuMicros = 0;
let peak = 0;
let state: QueueState = EMPTY_QUEUE;
let next = 0;
let now = 0;
for (; next < tickets.length || state.tickets.length > 0; now += tick) {
  const arrivals: QueueTicket[] = [];
  while (next < tickets.length && tickets[next]!.joinedAt <= now) arrivals.push(tickets[next++]!);
  const t0 = process.cpuUsage();
  const r = matchStep(state, { arrivals, now }, DEFAULT_MATCHMAKING_CONFIG);
  const used = process.cpuUsage(t0);
  cpuMicros += used.user + used.system;
  state = r.state;
  peak = Math.max(
    peak,
    state.tickets.reduce((s, t) => s + t.players.length, 0),
  );
  for (const t of r.tables) {
    humanTables++;
    spreads.push(t.spread);
    for (const k of t.tickets) for (let i = 0; i < k.players.length; i++) waits.push(now - k.joinedAt);
  }
  // every offered ticket takes the bots (the worst case for the bot share)
  if (r.botOffers.length) {
    for (const k of r.botOffers) {
      botTables++;
      for (let i = 0; i < k.players.length; i++) waits.push(now - k.joinedAt);
    }
    state = matchStep(state, { leaves: r.botOffers.map((k) => k.id), now }).state;
  }
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const seconds = now / 1000;
const out = {
  players,
  ratePerSecond: rate,
  teamShare,
  tickMs: tick,
  tables: humanTables + botTables,
  waitP50S: (pct(waits, 50) ?? 0) / 1000,
  waitP95S: (pct(waits, 95) ?? 0) / 1000,
  spreadP50: pct(spreads, 50),
  spreadP95: pct(spreads, 95),
  botTableShare: Math.round((botTables / Math.max(1, humanTables + botTables)) * 1000) / 1000,
  matcherCpuMsPerSecond: Math.round((cpuMicros / 1000 / Math.max(1, seconds)) * 1000) / 1000,
  peakQueued: peak,
  simulatedSeconds: seconds,
};
console.log(JSON.stringify(out));
