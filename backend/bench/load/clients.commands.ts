/**
 * The commands of a client process (see `Command`): set up its tables, collect the window's figures, prepare and run
 * the reconnect storm, drive the echo baseline, close the sockets at the end.
 */
import { performance } from 'node:perf_hooks';
import { Socket } from 'socket.io-client';
import { SeatScheduler } from './stats';
import { benchUsername } from './bench-names';
import { BENCH_SETTINGS, Collected, Command, send } from './clients.protocol';
import { api, connect, connectEcho, emitAck, pool, register, routeHttp, sleep, User, userNode } from './clients.http';
import { counters, error, flags, loopDelay, loopDelayP99Ms } from './clients.state';
import { Member, Table } from './clients.table';

// ------------------------------------------------------------------ setup

let members: Member[] = [];
let tables: Table[] = [];

export async function setup(c: Extract<Command, { cmd: 'setup' }>): Promise<void> {
  const t0 = performance.now();
  const interval = SeatScheduler.intervalFor(c.rate, c.totalTables, c.humans);
  const perTable = c.humans + c.spectators;
  // 1. users (argon2 on the server: keep a few registrations in flight). A table's spectator sockets share one
  // account (one person watching from several devices): each socket still gets that table's events, and a storm of
  // thousands of sockets does not need thousands of registrations
  const accounts = c.humans + (c.spectators > 0 ? 1 : 0);
  routeHttp(c.urls, c.http === 'sticky');
  // socket k of table ti is the run's socket ti · perTable + k: round-robin over the nodes
  const nodeOf = (ti: number, k: number) => (ti * perTable + k) % c.urls.length;
  const names: string[] = [];
  for (const ti of c.tables) for (let k = 0; k < accounts; k++) names.push(benchUsername(c.runId, ti, k));
  const users: User[] = new Array(names.length);
  await pool(names, 8, async (name, i) => {
    users[i] = await register(name);
  });
  const tRegistered = performance.now();
  tables = c.tables.map((i) => new Table(i));
  members = [];
  const byTable: Member[][] = [];
  c.tables.forEach((ti, j) => {
    const list: Member[] = [];
    // one schedule per table, shared by its human seats
    const sched = new SeatScheduler(interval, Math.random() * interval);
    for (let k = 0; k < perTable; k++) {
      const human = k < c.humans;
      const user = users[j * accounts + Math.min(k, c.humans)];
      const index = members.length + list.length;
      list.push(new Member(tables[j], user, human ? k : null, k === 0, human ? sched : null, nodeOf(ti, k), index));
      if (!userNode.has(user.id)) userNode.set(user.id, c.urls[nodeOf(ti, k)]);
    }
    byTable.push(list);
    members.push(...list);
  });
  // 2. tables over HTTP, in parallel batches, BEFORE any socket connects: a server that broadcasts every lobby change
  // to every socket would otherwise bury the setup under its own lobby traffic (a seated human gets its exact view
  // from join_game below, like any client that connects to a running table)
  await pool(byTable, c.batch, async (list) => {
    const host = list[0];
    const created = await api(host.user, 'POST', '/api/games', BENCH_SETTINGS);
    const gameId = created.id as string;
    host.table.gameId = gameId;
    for (let s = 1; s < 4; s++) {
      if (s < c.humans) await api(list[s].user, 'POST', `/api/games/${gameId}/join`, { seat: s });
      else await api(host.user, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    }
    if (list.length > c.humans) await api(list[c.humans].user, 'POST', `/api/games/${gameId}/spectate`, {});
    await api(host.user, 'POST', `/api/games/${gameId}/start`, {});
  });
  const tCreated = performance.now();
  // 3. sockets: connect, then join_game (players) / join_game_as_spectator: the exact view, and play from there
  await pool(members, 50, async (m) => {
    const s = await connect(c.urls[m.node], { token: m.user.token }, true);
    m.attach(s);
    const event = m.isPlayer ? 'join_game' : 'join_game_as_spectator';
    const ack = await emitAck(s, event, { gameId: m.table.gameId });
    if (!ack.ok) throw new Error(`${event}: ${ack.message}`);
  });
  const tConnected = performance.now();
  send({
    cmd: 'ready',
    registerMs: Math.round(tRegistered - t0),
    createMs: Math.round(tCreated - tRegistered),
    connectMs: Math.round(tConnected - tCreated),
  });
}

export function cpuSinceMark(): number {
  const u = process.cpuUsage(counters.markCpu);
  return Math.round(((u.user + u.system) / 1000 / Math.max(1, performance.now() - counters.markAt)) * 100);
}

export function collect(): Collected {
  return {
    actions: counters.actions,
    botActions: counters.botActions,
    ackMs: counters.ackMs,
    updateMs: counters.updateMs,
    errors: counters.errors,
    errorSamples: counters.errorSamples,
    tablesPlaying: tables.filter((t) => !t.closed).length,
    cpuPct: cpuSinceMark(),
    ackWhere: counters.ackWhere,
    eventLoopP99Ms: loopDelayP99Ms(),
    where: members.map((m) => [m.table.gameId, m.node]),
    rxBytes: counters.rxBytes,
  };
}

// ------------------------------------------------------------------ storm

export async function stormPrepare(timeoutMs: number): Promise<void> {
  flags.paused = true;
  for (const m of members) {
    if (m.timer) clearTimeout(m.timer);
    m.timer = null;
  }
  const t0 = Date.now();
  for (;;) {
    const now = Date.now();
    const waiting = members.filter((m) => !m.quiet()).length;
    const lastEvent = Math.max(0, ...members.map((m) => m.lastEventAt));
    if (waiting === 0 && now - lastEvent > 500) break;
    if (now - t0 > timeoutMs) {
      send({ cmd: 'storm-ready', ok: false, notQuiet: waiting });
      return;
    }
    await sleep(100);
  }
  for (const m of members) {
    m.before = m.table.closed ? null : m.snapshot();
    m.recoveredAt = null;
    m.mismatch = null;
  }
  send({ cmd: 'storm-ready', ok: true, sockets: members.length });
}

export async function storm(timeoutMs: number): Promise<void> {
  flags.stormActive = true;
  const watched = members.filter((m) => m.before);
  const t0 = performance.now();
  // drop every transport at once: socket.io-client sees "transport close" and reconnects with its usual backoff
  for (const m of members) (m.socket.io as unknown as { engine: { close(): void } }).engine.close();
  while (performance.now() - t0 < timeoutMs && watched.some((m) => m.recoveredAt === null)) await sleep(50);
  const missing = watched.filter((m) => m.recoveredAt === null);
  const last = Math.max(0, ...watched.map((m) => (m.recoveredAt ?? t0) - t0));
  for (const m of missing.slice(0, 3)) error(`storm: not back with its view: ${m.mismatch ?? 'no game_update'}`);
  if (missing.length) counters.errors += Math.max(0, missing.length - 3);
  flags.stormActive = false;
  flags.paused = false;
  for (const m of members) {
    m.before = null;
    m.lastKey = '';
    m.maybeAct();
  }
  send({
    cmd: 'storm-done',
    recoveryMs: missing.length ? null : last,
    recovered: watched.length - missing.length,
    sockets: watched.length,
  });
}

// ------------------------------------------------------------------ echo baseline

export async function echo(c: Extract<Command, { cmd: 'echo' }>): Promise<void> {
  const sockets: Socket[] = [];
  const list = Array.from({ length: c.sockets }, (_x, i) => i);
  await pool(list, 50, async (i) => {
    sockets[i] = await connectEcho(c.url, `t${c.tableOffset + Math.floor(i / Math.max(1, c.humans))}`);
  });
  const samples: number[] = [];
  let echoErrors = 0;
  let credit = 0;
  let next = 0;
  let last = performance.now();
  const end = last + c.seconds * 1000;
  loopDelay.reset();
  loopDelay.enable();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      credit += ((now - last) / 1000) * c.rate;
      last = now;
      while (credit >= 1) {
        credit -= 1;
        const s = sockets[next++ % sockets.length];
        const t0 = performance.now();
        s.timeout(30000).emit('act', { n: next }, (err: Error | null) => {
          if (err) echoErrors++;
          else samples.push(performance.now() - t0);
        });
      }
      if (now >= end) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  await sleep(500);
  for (const s of sockets) s.close();
  send({ cmd: 'echo-done', ackMs: samples, errors: echoErrors, eventLoopP99Ms: loopDelayP99Ms() });
}

// ------------------------------------------------------------------ end

/** close-game: humans stop, every socket closes (disconnects are expected from now on). */
export function closeGame(): void {
  flags.stopping = true;
  flags.paused = true;
  for (const m of members) {
    if (m.timer) clearTimeout(m.timer);
    m.socket?.close();
  }
  send({ cmd: 'closed' });
}

export function stop(): never {
  flags.stopping = true;
  process.exit(0);
}
