/**
 * Issue #27, "How it is checked": 16 scripted players (./scripted-player.ts: real accounts, real socket.io clients
 * playing from their own views) in a PARTNERS and in a SOLO sit-and-go play to the end through the real HTTP + socket
 * API against the real app and database. Checked from the outside (the final view, the stored events, the ledger,
 * the replays, each player's history) with the rules of the design written out here, not with the engine:
 * every round starts once (one table per match, a round's tables opened before any of its games ends), the bracket
 * is consistent (advancers play the next round exactly once, one winner, standings by round), prizes are the pool
 * (buy-ins less 10 %) split per place with ties sharing and floors to the house, the ledger balances, the escrow ends
 * at 0 and every payout is one transfer; each player's history lists its games with working replay ids.
 */
import type {
  GameReplay,
  RatingsResponse,
  TournamentHistoryItem,
  TournamentMatchView,
  TournamentView,
} from '@spades/common';
import { CoinsService } from '../../src/coins/coins.service';
import { TOURNAMENT_LEDGER } from '../../src/tournaments/tournaments.service';
import { expectLedgerBalanced, useFastTimers } from '../games/helpers';
import { createTestApp, sleep, type TestApp } from '../support/test-app';
import { ScriptedPlayer, type ScriptedPlayerOptions } from './scripted-player';

const BUY_IN = 100_000;
/** Short games: one hand (endFast bids) at −100 / 100. */
const RULES = {
  biddingOption: 'REG',
  gimmick: null,
  minPoints: -100,
  maxPoints: 100,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

type Mode = 'PARTNERS' | 'SOLO';

interface Run {
  id: string;
  mode: Mode;
  players: ScriptedPlayer[];
  /** Teams registered together (PARTNERS). */
  teams: [ScriptedPlayer, ScriptedPlayer][];
  /** Players who never take their seat. */
  noShows: Set<string>;
  /** Coins of each player before registering. */
  before: Map<string, number>;
  houseBefore: number;
  view: TournamentView;
}

describe('tournaments: 16 scripted players play a sit-and-go to the end (real app, real sockets)', () => {
  let t: TestApp;
  const everyone: ScriptedPlayer[] = [];
  beforeAll(async () => {
    // a leaver's seat goes to a bot after 300 ms; bots and trick displays take a few ms
    useFastTimers({ SEAT_REPLACEMENT_MS: '300', RESULT_MS: '200', HAND_SUMMARY_MS: '30' });
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const p of everyone) p.close();
    await t?.close();
  });

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    t.dataSource.query(sql, params);
  const balanceOf = async (key: string): Promise<number> =>
    Number((await q<{ balance: string }>(`SELECT balance FROM coin_accounts WHERE key = $1`, [key]))[0]?.balance ?? 0);

  async function players(n: number, mode: Mode, extra: (i: number) => ScriptedPlayerOptions = () => ({})) {
    const list: ScriptedPlayer[] = [];
    for (let i = 0; i < n; i++) {
      list.push(
        await ScriptedPlayer.create(t.url, { prefix: mode === 'SOLO' ? 's' : 'p', seed: 100 + i, ...extra(i) }),
      );
    }
    everyone.push(...list);
    return list;
  }

  /** Creates the sit-and-go, registers everybody (teams together), waits until it is FINISHED. */
  async function play(
    mode: Mode,
    list: ScriptedPlayer[],
    teams: [ScriptedPlayer, ScriptedPlayer][],
    prizeSplit: number[],
    size: 8 | 16 = 16,
    noShowMs?: number,
  ): Promise<Run> {
    const creator = list[0];
    const created = await creator.http<TournamentView>('POST', '/api/tournaments', {
      name: `Sim ${mode} ${size}`,
      mode,
      size,
      buyIn: BUY_IN,
      prizeSplit,
      rules: RULES,
      ...(noShowMs !== undefined ? { noShowMs } : {}),
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({ kind: 'sit_and_go', status: 'REGISTERING', mode, size, buyIn: BUY_IN });
    expect(await creator.watch(id)).toMatchObject({ ok: true });

    const before = new Map<string, number>();
    for (const p of list) before.set(p.id, await balanceOf(`user:${p.id}`));
    const houseBefore = await balanceOf('house');

    for (const [a, b] of teams) await a.befriend(b);
    const inTeam = new Set(teams.flat().map((p) => p.id));
    let last: TournamentView | null = null;
    // teams first, then the singles; the last registration fills it and starts it in the same transaction
    for (const [a, b] of teams) {
      const r = await a.register(id, b);
      expect(r.status).toBe(200);
      last = r.body;
    }
    for (const p of list.filter((x) => !inTeam.has(x.id))) {
      const r = await p.register(id);
      expect(r.status).toBe(200);
      last = r.body;
    }
    expect(last?.status).toBe('RUNNING');
    for (const p of list) expect(await balanceOf(`user:${p.id}`)).toBe(before.get(p.id)! - BUY_IN);

    const v = await until(
      async () => {
        const r = await creator.view(id);
        return r.body.status === 'FINISHED' ? r.body : null;
      },
      150_000,
      async () => `tournament ${id} did not finish: ${bracketOf((await creator.view(id)).body)}`,
    );
    // the watcher saw the tournament live: the same view for every watcher (no `me`), rounds in order, the end
    await creator.waitFor(
      () => creator.updates.some((u) => u.id === id && u.status === 'FINISHED'),
      5_000,
      'tournament_updated FINISHED',
    );
    const live = creator.updates.filter((u) => u.id === id);
    expect(live.every((u) => u.me === undefined && u.nextMatch === undefined)).toBe(true);
    const rounds = live.map((u) => u.round ?? 0).filter((r) => r > 0);
    expect(rounds).toEqual([...rounds].sort((a, b) => a - b));
    expect(new Set(rounds).size).toBe(v.roundCount);
    const noShows = new Set(list.filter((p) => p.opts.noShow).map((p) => p.id));
    return { id, mode, players: list, teams, noShows, before, houseBefore, view: v };
  }

  it('PARTNERS, 16 players (4 teams registered together, 8 singles paired by the server, one leaver): plays to the end, pays once', async () => {
    // player 1 (in a team) leaves its first game after 3 cards: a bot plays on for the team
    const list = await players(16, 'PARTNERS', (i) => (i === 1 ? { leaveAfterPlays: 3 } : {}));
    const teams: [ScriptedPlayer, ScriptedPlayer][] = [0, 2, 4, 6].map((i) => [list[i], list[i + 1]]);
    const run = await play('PARTNERS', list, teams, [50, 25, 15, 10]);
    const v = run.view;

    // entrants: 8 teams of two, the registered teams kept together, every player once
    expect(v.entrants).toHaveLength(8);
    expect(v.entrants.every((e) => e.players.length === 2)).toBe(true);
    expect(sorted(v.entrants.flatMap((e) => e.players.map((p) => p.userId)))).toEqual(sorted(list.map((p) => p.id)));
    for (const [a, b] of teams) {
      const e = entrantOf(v, a.id);
      expect(sorted(e.players.map((p) => p.userId))).toEqual(sorted([a.id, b.id]));
    }

    await checkRoundsAndBracket(run, [4, 2, 1]);
    // PARTNERS standings: final winner 1, final loser 2, semi-final losers 3 (tied), quarter-final losers 5 (tied)
    const [r1, r2, r3] = v.rounds;
    const final = r3.matches[0];
    const expected = new Map<string, number>();
    for (const m of r1.matches) for (const e of losersOf(m)) expected.set(e, 5);
    for (const m of r2.matches) for (const e of losersOf(m)) expected.set(e, 3);
    expected.set(losersOf(final)[0], 2);
    expected.set(final.advanced[0], 1);
    expect(standingsMap(v)).toEqual(expected);
    expect(v.standings.filter((s) => s.place === 1)).toHaveLength(1);

    // the leaver left its first game after 3 plays, a bot took the seat, the team's result still counts
    const leaver = list[1];
    const left = leaver.gamesOf(run.id)[0];
    expect(left.left).toBe(true);
    expect(left.plays).toBe(3);
    const replay = await leaver.http<GameReplay>('GET', `/api/games/${left.gameId}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body.players[left.seat!].kind).toBe('bot');

    await checkMoney(run);
    await checkHistory(run);
    for (const p of list) expect(p.errors).toEqual([]);
  }, 170_000);

  it('SOLO, 16 players: four tables, two, a final table; plays to the end, pays once', async () => {
    const list = await players(16, 'SOLO');
    const run = await play('SOLO', list, [], [40, 25, 15, 10, 4, 3, 2, 1]);
    const v = run.view;
    expect(v.entrants).toHaveLength(16);
    expect(v.entrants.every((e) => e.players.length === 1)).toBe(true);

    await checkRoundsAndBracket(run, [4, 2, 1]);
    // SOLO standings: the final table by the game's places, round 2 losers share 5, round 1 losers share 9
    const [r1, r2, r3] = v.rounds;
    const expected = new Map<string, number>();
    for (const m of r1.matches) for (const e of losersOf(m)) expected.set(e, 9);
    for (const m of r2.matches) for (const e of losersOf(m)) expected.set(e, 5);
    for (const [e, place] of Object.entries(r3.matches[0].places ?? {})) expected.set(e, place);
    expect(standingsMap(v)).toEqual(expected);
    expect(v.standings.filter((s) => s.place === 1).length).toBeGreaterThanOrEqual(1);

    await checkMoney(run);
    await checkHistory(run);
    for (const p of list) expect(p.errors).toEqual([]);
  }, 170_000);

  it('no-shows (8 players, 30 s seat deadline): a PARTNERS team missing a player forfeits; a SOLO table plays with a bot', async () => {
    // PARTNERS: player 3 (registered with player 2) never sits; SOLO: player 5 never sits
    const duo = await players(8, 'PARTNERS', (i) => (i === 3 ? { noShow: true } : {}));
    const solo = await players(8, 'SOLO', (i) => (i === 5 ? { noShow: true } : {}));
    const duoTeams: [ScriptedPlayer, ScriptedPlayer][] = [
      [duo[0], duo[1]],
      [duo[2], duo[3]],
    ];
    const [pr, sr] = await Promise.all([
      play('PARTNERS', duo, duoTeams, [60, 30, 10], 8, 30_000),
      play('SOLO', solo, [], [50, 30, 20], 8, 30_000),
    ]);

    await checkRoundsAndBracket(pr, [2, 1]);
    const forfeit = entrantOf(pr.view, duo[3].id).id;
    const lost = pr.view.rounds[0].matches.find((m) => m.entrantIds.includes(forfeit))!;
    expect(lost.walkover).toBe(true);
    // the partner who came was told, sat down, and saw no game
    expect(duo[2].games.get(lost.gameId!)?.joinAck).toMatchObject({ ok: true });
    const duoFinal = pr.view.rounds[1].matches[0];
    const duoExpected = new Map<string, number>();
    for (const m of pr.view.rounds[0].matches) for (const e of losersOf(m)) duoExpected.set(e, 3);
    duoExpected.set(losersOf(duoFinal)[0], 2);
    duoExpected.set(duoFinal.advanced[0], 1);
    expect(standingsMap(pr.view)).toEqual(duoExpected);

    await checkRoundsAndBracket(sr, [2, 1]);
    const absentSolo = entrantOf(sr.view, solo[5].id).id;
    const botTable = sr.view.rounds[0].matches.find((m) => m.entrantIds.includes(absentSolo))!;
    expect(botTable.walkover).toBe(false);
    expect(botTable.advanced).not.toContain(absentSolo);
    const soloExpected = new Map<string, number>();
    for (const m of sr.view.rounds[0].matches) for (const e of losersOf(m)) soloExpected.set(e, 5);
    for (const [e, place] of Object.entries(sr.view.rounds[1].matches[0].places ?? {})) soloExpected.set(e, place);
    expect(standingsMap(sr.view)).toEqual(soloExpected);

    // both ran at once: the house got both takes (each run's own take is checked on its escrow's transfers)
    expect(await balanceOf('house')).toBe(pr.houseBefore + houseTake(pr) + houseTake(sr));
    for (const run of [pr, sr]) {
      await checkMoney(run, false);
      await checkHistory(run);
      for (const p of run.players) expect(p.errors).toEqual([]);
    }
    // a no-show's history lists the tournament, without a game
    for (const p of [duo[3], solo[5]]) {
      const item = (await p.history()).body.find((h) => h.tournamentId === (p === duo[3] ? pr.id : sr.id));
      expect(item?.games).toEqual([]);
    }
  }, 170_000);

  /**
   * Rounds, tables and results: one table per match, opened once, the round's tables opened before any game of the
   * round ended (they start together), the seating of the design, the result read from the game, the advancers
   * playing the next round exactly once.
   */
  async function checkRoundsAndBracket(run: Run, matchesPerRound: number[]): Promise<void> {
    const v = run.view;
    const partners = run.mode === 'PARTNERS';
    const absent = (eid: string) => entrantById(v, eid).players.some((pl) => run.noShows.has(pl.userId));
    // PARTNERS: a team with a missing player forfeits (walkover); SOLO: 3 of 4 present play with a bot
    const isWalkover = (m: TournamentMatchView) => partners && m.entrantIds.some(absent);
    expect(v.roundCount).toBe(matchesPerRound.length);
    expect(v.rounds.map((r) => r.matches.length)).toEqual(matchesPerRound);
    expect(v.rounds.map((r) => r.number)).toEqual(matchesPerRound.map((_, i) => i + 1));
    const all = v.rounds.flatMap((r) => r.matches);
    for (const m of all) {
      expect(m).toMatchObject({ status: 'DONE', walkover: isWalkover(m) });
      expect(typeof m.gameId).toBe('string');
    }
    // one table per match: distinct game ids, each a stored table
    const gameIds = all.map((m) => m.gameId!);
    expect(new Set(gameIds).size).toBe(all.length);
    const tables = await q<{ n: number }>(`SELECT count(*)::int AS n FROM games WHERE id = ANY($1::uuid[])`, [gameIds]);
    expect(tables[0].n).toBe(all.length);

    // bracket: round 1 has every entrant once; each later round exactly the advancers of the one before
    const entrantIds = v.entrants.map((e) => e.id);
    expect(sorted(v.rounds[0].matches.flatMap((m) => m.entrantIds))).toEqual(sorted(entrantIds));
    for (let r = 1; r < v.rounds.length; r++) {
      const advanced = v.rounds[r - 1].matches.flatMap((m) => m.advanced);
      expect(sorted(v.rounds[r].matches.flatMap((m) => m.entrantIds))).toEqual(sorted(advanced));
      expect(new Set(advanced).size).toBe(advanced.length);
    }
    for (const [ri, round] of v.rounds.entries()) {
      const isFinal = ri === v.rounds.length - 1;
      for (const m of round.matches) {
        expect(m.entrantIds).toHaveLength(partners ? 2 : 4);
        if (partners || !isFinal) expect(m.advanced).toHaveLength(partners ? 1 : 2);
        // the advancers placed at least as well as everybody else at the table; no-shows never advance, last
        const places = m.places ?? {};
        expect(sorted(Object.keys(places))).toEqual(sorted(m.entrantIds));
        const worstAdvancer = Math.max(...m.advanced.map((e) => places[e]));
        for (const e of m.entrantIds.filter((x) => !m.advanced.includes(x))) {
          expect(places[e]).toBeGreaterThanOrEqual(worstAdvancer);
        }
        for (const e of m.entrantIds.filter(absent)) {
          expect(m.advanced).not.toContain(e);
          for (const other of m.entrantIds.filter((x) => !absent(x))) expect(places[e]).toBeGreaterThan(places[other]);
        }
      }
    }

    // every match's players were told once (that match's table) and sat where the design seats them;
    // the match result is the game's result (from the stored replay)
    for (const m of all) {
      const seats = new Map<string, number>();
      for (const [slot, eid] of m.entrantIds.entries()) {
        for (const [k, pl] of entrantById(v, eid).players.entries()) {
          const p = run.players.find((x) => x.id === pl.userId)!;
          const notices = p.ready.filter((r) => r.tournamentId === run.id && r.matchId === m.id);
          expect(notices).toHaveLength(1);
          expect(notices[0]).toMatchObject({ gameId: m.gameId, round: m.round, name: v.name });
          expect(notices[0].seatDeadline).toBeGreaterThan(0);
          const g = p.games.get(m.gameId!)!;
          // PARTNERS: team A in seats 0 and 2, team B in 1 and 3; SOLO: the entrants in seats 0..3 in order
          const seat = partners ? slot + 2 * k : slot;
          seats.set(pl.userId, seat);
          if (run.noShows.has(p.id)) {
            expect(g.joinAck).toBeNull();
            continue;
          }
          expect(g.joinAck).toMatchObject({ ok: true });
          expect(g.seat).toBe(seat);
          if (!g.left && !m.walkover) expect(g.over).not.toBeNull();
        }
      }
      if (m.walkover) continue;
      const replay = await run.players[0].http<GameReplay>('GET', `/api/games/${m.gameId}/replay`);
      expect(replay.status).toBe(200);
      const gamePlaces = replay.body.result.places;
      const present = m.entrantIds.filter((e) => !absent(e));
      const seatOf = (eid: string) => seats.get(entrantById(v, eid).players[0].userId)!;
      for (const eid of m.entrantIds.filter(absent)) expect(replay.body.players[seatOf(eid)].kind).toBe('bot');
      // a table of four humans is rated as usual; one that started with a bot is not
      expect(replay.body.rated).toBe(present.length === m.entrantIds.length);
      // present entrants keep the game's order (with a bot at the table only the humans are ranked)
      for (const a of present) {
        if (present.length === m.entrantIds.length) expect(m.places?.[a]).toBe(gamePlaces[seatOf(a)]);
        for (const b of present) {
          expect(Math.sign(m.places![a] - m.places![b])).toBe(Math.sign(gamePlaces[seatOf(a)] - gamePlaces[seatOf(b)]));
        }
      }
    }
    // nobody was told about a match that is not theirs
    for (const p of run.players) {
      for (const r of p.ready.filter((x) => x.tournamentId === run.id)) {
        const m = all.find((x) => x.id === r.matchId)!;
        expect(m.entrantIds).toContain(entrantOf(v, p.id).id);
      }
    }

    // the stored events: seq 1..n; one match_opened and one result per match (match_started + match_played, or a
    // match_walkover); a round's tables all opened after the previous round's last result and before any result
    const rows = await q<{ seq: number; event: { type: string; matchId?: string } }>(
      `SELECT seq, event FROM tournament_events WHERE tournament_id = $1 ORDER BY seq`,
      [run.id],
    );
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const [stored] = await q<{ seq: number; status: string }>(`SELECT seq, status FROM tournaments WHERE id = $1`, [
      run.id,
    ]);
    expect(stored).toEqual({ seq: rows.length, status: 'FINISHED' });
    const types = rows.map((r) => r.event.type);
    expect(types.filter((x) => x === 'started')).toHaveLength(1);
    expect(types.filter((x) => x === 'cancelled' || x === 'unregistered')).toEqual([]);
    const idsOf = (type: string) => sorted(rows.filter((r) => r.event.type === type).map((r) => r.event.matchId!));
    const played = all.filter((m) => !m.walkover).map((m) => m.id);
    expect(idsOf('match_opened')).toEqual(sorted(all.map((m) => m.id)));
    expect(idsOf('match_started')).toEqual(sorted(played));
    expect(idsOf('match_played')).toEqual(sorted(played));
    expect(idsOf('match_walkover')).toEqual(sorted(all.filter((m) => m.walkover).map((m) => m.id)));
    const at = (types: string[], matchId: string) =>
      rows.findIndex((r) => types.includes(r.event.type) && r.event.matchId === matchId);
    let previousEnd = types.indexOf('started');
    for (const round of v.rounds) {
      const opened = round.matches.map((m) => at(['match_opened'], m.id));
      const results = round.matches.map((m) => at(['match_played', 'match_walkover'], m.id));
      expect(Math.min(...opened)).toBeGreaterThan(previousEnd);
      expect(Math.max(...opened)).toBeLessThan(Math.min(...results));
      previousEnd = Math.max(...results);
    }
    expect(previousEnd).toBe(rows.length - 1); // the last result finished it

    // ratings moved as usual: every player counts at least the rated games it played to the end with 4 humans
    const ratedGames = new Map<string, number>();
    for (const m of all.filter((x) => !x.walkover && !x.entrantIds.some(absent))) {
      const ids = m.entrantIds.flatMap((eid) => entrantById(v, eid).players.map((pl) => pl.userId));
      const someoneLeft = ids.some((uid) => run.players.find((p) => p.id === uid)!.games.get(m.gameId!)?.left);
      if (!someoneLeft) for (const uid of ids) ratedGames.set(uid, (ratedGames.get(uid) ?? 0) + 1);
    }
    expect(ratedGames.size).toBeGreaterThan(0);
    const ids = [...ratedGames.keys()];
    await until(
      async () => {
        const r = await run.players[0].http<RatingsResponse>('GET', `/api/ratings?ids=${ids.join(',')}`);
        const ok = r.body.ratings.every((x) => x.gamesFinished >= (ratedGames.get(x.userId) ?? 0));
        return r.body.ratings.length === ids.length && ok ? true : null;
      },
      10_000,
      async () => 'ratings did not count the tournament games',
    );
  }

  /** Prizes per the design, the ledger balanced, the escrow empty, every buy-in and payout exactly one transfer. */
  async function checkMoney(run: Run, houseAlone = true): Promise<void> {
    const v = run.view;
    const n = run.players.length;
    const pool = Math.floor((n * BUY_IN * 9) / 10);
    expect(v.prizePool).toBe(pool);
    const expected = expectedPayouts(v, pool);
    const key = (p: { userId: string; amount: number; place: number }) => `${p.userId}:${p.amount}:${p.place}`;
    expect(v.payouts.map(key).sort()).toEqual(expected.map(key).sort());
    const paid = v.payouts.reduce((a, p) => a + p.amount, 0);
    expect(paid).toBeLessThanOrEqual(pool);
    expect(paid).toBeGreaterThan(pool - 100); // only floor remainders stay with the house

    // balances: every player = before − buy-in + prize; the house got the 10 % and the remainders
    const prizeOf = (uid: string) => v.payouts.filter((p) => p.userId === uid).reduce((a, p) => a + p.amount, 0);
    for (const p of run.players) {
      expect(await balanceOf(`user:${p.id}`)).toBe(run.before.get(p.id)! - BUY_IN + prizeOf(p.id));
    }
    const escrowKey = `escrow:tournament:${run.id}`;
    expect(await balanceOf(escrowKey)).toBe(0);
    expect(await t.app.get(CoinsService).totalSupplyCheck()).toBe(0n);
    await expectLedgerBalanced((sql) => q(sql));

    // the escrow's transfers: one buy-in per player in, one prize per payout out, the rest to the house, nothing else
    const moves = await q<{ reason: string; amount: string; other: string }>(
      `SELECT e.reason, e.amount::text AS amount, oa.key AS other
         FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
         JOIN coin_entries o ON o.transfer_id = e.transfer_id AND o.id <> e.id
         JOIN coin_accounts oa ON oa.id = o.account_id
        WHERE a.key = $1`,
      [escrowKey],
    );
    const buyIns = moves.filter((m) => m.reason === TOURNAMENT_LEDGER.buyIn);
    expect(sorted(buyIns.map((m) => m.other))).toEqual(sorted(run.players.map((p) => `user:${p.id}`)));
    expect(buyIns.every((m) => Number(m.amount) === BUY_IN)).toBe(true);
    const prizes = moves.filter((m) => m.reason === TOURNAMENT_LEDGER.prize);
    expect(prizes.map((m) => `${m.other}:${-Number(m.amount)}`).sort()).toEqual(
      v.payouts.map((p) => `user:${p.userId}:${p.amount}`).sort(),
    );
    const house = moves.filter((m) => m.reason === TOURNAMENT_LEDGER.house);
    expect(house.length).toBeLessThanOrEqual(1);
    expect(house.every((m) => m.other === 'house')).toBe(true);
    expect(-house.reduce((a, m) => a + Number(m.amount), 0)).toBe(n * BUY_IN - paid);
    expect(moves).toHaveLength(buyIns.length + prizes.length + house.length);
    if (houseAlone) expect(await balanceOf('house')).toBe(run.houseBefore + houseTake(run));
  }

  /** Each player's history: this tournament with its place, prize and every game of its entrant (replays work). */
  async function checkHistory(run: Run): Promise<void> {
    const v = run.view;
    const places = standingsMap(v);
    for (const p of run.players) {
      const r = await p.history();
      expect(r.status).toBe(200);
      const item = r.body.find((h: TournamentHistoryItem) => h.tournamentId === run.id);
      const entrant = entrantOf(v, p.id);
      const played = v.rounds
        .flatMap((round) => round.matches)
        .filter((m) => m.entrantIds.includes(entrant.id) && !m.walkover && !absentEntrant(run, entrant.id))
        .map((m) => ({ matchId: m.id, round: m.round, gameId: m.gameId! }));
      if (!run.noShows.size) expect(played.length).toBeGreaterThanOrEqual(1);
      expect(item).toMatchObject({
        name: v.name,
        mode: run.mode,
        size: v.size,
        status: 'FINISHED',
        place: places.get(entrant.id),
        prize: v.payouts.filter((x) => x.userId === p.id).reduce((a, x) => a + x.amount, 0),
      });
      expect([...item!.games].sort((a, b) => a.round - b.round)).toEqual(played.sort((a, b) => a.round - b.round));
      for (const g of item!.games) {
        const replay = await p.http<GameReplay>('GET', `/api/games/${g.gameId}/replay`);
        expect(replay.status).toBe(200);
        expect(replay.body.gameId).toBe(g.gameId);
      }
    }
  }
});

/** The design's prizes, written out: places p..p+k−1 of k tied entrants share those percents; team shares halve. */
function expectedPayouts(v: TournamentView, pool: number): { userId: string; amount: number; place: number }[] {
  const out: { userId: string; amount: number; place: number }[] = [];
  const byPlace = new Map<number, string[]>();
  for (const s of v.standings) byPlace.set(s.place, [...(byPlace.get(s.place) ?? []), s.entrantId]);
  for (const [place, tied] of byPlace) {
    let percent = 0;
    for (let p = place; p < place + tied.length; p++) percent += v.prizeSplit[p - 1] ?? 0;
    for (const eid of tied) {
      const e = v.entrants.find((x) => x.id === eid)!;
      const amount = Math.floor((pool * percent) / (100 * tied.length * e.players.length));
      if (amount > 0) for (const pl of e.players) out.push({ userId: pl.userId, amount, place });
    }
  }
  return out;
}

function entrantById(v: TournamentView, id: string) {
  const e = v.entrants.find((x) => x.id === id);
  if (!e) throw new Error(`no entrant ${id}`);
  return e;
}

function entrantOf(v: TournamentView, userId: string) {
  const e = v.entrants.find((x) => x.players.some((p) => p.userId === userId));
  if (!e) throw new Error(`no entrant for ${userId}`);
  return e;
}

/** What the house keeps: every buy-in less the prizes. */
function houseTake(run: Run): number {
  return run.players.length * BUY_IN - run.view.payouts.reduce((a, p) => a + p.amount, 0);
}

function absentEntrant(run: Run, entrantId: string): boolean {
  return entrantById(run.view, entrantId).players.some((p) => run.noShows.has(p.userId));
}

function losersOf(m: TournamentMatchView): string[] {
  return m.entrantIds.filter((e) => !m.advanced.includes(e));
}

function standingsMap(v: TournamentView): Map<string, number> {
  return new Map(v.standings.map((s) => [s.entrantId, s.place]));
}

function sorted<T>(xs: T[]): T[] {
  return [...xs].sort();
}

function bracketOf(v: TournamentView): string {
  return JSON.stringify({
    status: v.status,
    rounds: v.rounds.map((r) => r.matches.map((m) => `${m.id}:${m.status}:${m.gameId ?? '-'}:${m.advanced}`)),
  });
}

async function until<T>(probe: () => Promise<T | null>, timeoutMs: number, why: () => Promise<string>): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const r = await probe();
    if (r !== null) return r;
    if (Date.now() - t0 > timeoutMs) throw new Error(await why());
    await sleep(250);
  }
}
