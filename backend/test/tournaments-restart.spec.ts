/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads and rows */
/**
 * Issue #27, "How it is checked": a SOLO and a PARTNERS sit-and-go of 8 scripted players against a real server PROCESS that is
 * SIGKILLed in the middle of round 1 and restarted on the same database. The tournament resumes where it was (the
 * round's tables are the same, no match opened twice, one `started`), finishes, and pays exactly once: one prize
 * transfer per payout, the escrow back to 0, every balance = before − buy-in + prize, the ledger balanced.
 *
 * Players are real accounts with real socket.io clients (games/helpers `Client`): they take their reserved seat when
 * `tournament_match_ready` arrives (or, after the restart, from their `nextMatch`) and play legal moves from their
 * own `game_update` view.
 */
import { Client, expectLedgerBalanced, forkedServerSuite, useFastTimers } from './games/helpers';
import { startChild, withDatabase } from './games/support/child';

const BUY_IN = 100_000;
const RULES = {
  biddingOption: 'REG',
  gimmick: null,
  minPoints: -100,
  maxPoints: 100,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timeout waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('tournaments: the server is SIGKILLed mid-round and restarted (forked process)', () => {
  const f = forkedServerSuite();

  it.each([
    ['SOLO', [50, 30, 20]],
    ['PARTNERS', [65, 35]],
  ] as const)(
    '%s, 8 players: resumes where it was, finishes, every payout happens once',
    async (mode, prizeSplit) => {
      useFastTimers({ RESULT_MS: '200', HAND_SUMMARY_MS: '30', SEAT_REPLACEMENT_MS: '300' });
      f.server = await startChild(f.db);
      let url = f.server.url;
      const ps: Client[] = [];
      for (let i = 0; i < 8; i++) ps.push(await Client.create(url));
      f.clients.push(...ps);
      for (const c of ps) c.auto = true;

      // each player takes the seat of every match it is told about (once the table answers)
      const joined = new Map<string, Set<string>>(ps.map((c) => [c.id, new Set<string>()]));
      const join = async (c: Client, gameId: string) => {
        if (joined.get(c.id)!.has(gameId)) return;
        const ack = await c.emit('join_game', { gameId });
        if (ack?.ok && typeof ack.seat === 'number') joined.get(c.id)!.add(gameId);
      };
      let joining = true;
      const joinLoop = (async () => {
        while (joining) {
          for (const c of ps) for (const r of c.events('tournament_match_ready')) await join(c, r.gameId);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();

      const created = await ps[0].http(url, 'POST', '/api/tournaments', {
        name: 'Restart Cup',
        mode,
        size: 8,
        buyIn: BUY_IN,
        prizeSplit,
        rules: RULES,
      });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      const before = await withDatabase(f.db, (q) =>
        q(`SELECT key, balance::text AS balance FROM coin_accounts WHERE key = ANY($1)`, [
          ps.map((c) => `user:${c.id}`),
        ]),
      );
      const balanceBefore = new Map(before.map((r: any) => [r.key as string, Number(r.balance)]));
      for (const c of ps) expect((await c.http(url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);

      // round 1 is being played: a card was played at some table → SIGKILL
      await until(
        async () => ps.some((c) => c.view?.tournament?.tournamentId === id && c.view.status === 'PLAYING'),
        60_000,
        'a round-1 game in play',
      );
      await f.server.kill();
      joining = false;
      await joinLoop;
      const atKill = await withDatabase(f.db, async (q) => {
        const [row] = await q(`SELECT status, seq, state FROM tournaments WHERE id = $1`, [id]);
        return row;
      });
      expect(atKill.status).toBe('RUNNING');
      // mid-round: a match of the current round is still to be decided
      const current = atKill.state.rounds[atKill.state.rounds.length - 1];
      expect(current.matches.some((m: any) => m.status !== 'DONE')).toBe(true);
      const round1Before: Record<string, string | null> = Object.fromEntries(
        atKill.state.rounds[0].matches.map((m: any) => [m.id, m.gameId]),
      );
      expect(Object.values(round1Before).every((g) => typeof g === 'string')).toBe(true);

      // restart on the same database; the players reconnect, re-join their table or their next match
      f.server = await startChild(f.db);
      url = f.server.url;
      for (const c of ps) await c.reconnect(url);
      joining = true;
      const joinLoop2 = (async () => {
        while (joining) {
          for (const c of ps) {
            for (const r of c.events('tournament_match_ready')) await join(c, r.gameId);
            const next = (await c.http(url, 'GET', `/api/tournaments/${id}`)).body?.nextMatch;
            if (next?.gameId) await join(c, next.gameId);
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      // a player seated at a running table gets its view back (the client re-sends join_game after a reconnect)
      for (const c of ps) if (c.view && c.view.status !== 'CLOSED') await c.emit('join_game', { gameId: c.view.id });

      const view = await until(
        async () => {
          const r = await ps[0].http(url, 'GET', `/api/tournaments/${id}`);
          return r.body?.status === 'FINISHED' ? r.body : null;
        },
        150_000,
        'the tournament to finish',
      );
      joining = false;
      await joinLoop2;

      // resumed where it was: the same round-1 tables, 2 + 1 matches, each played at one table
      expect(view.rounds.map((r: any) => r.matches.length)).toEqual([2, 1]);
      for (const m of view.rounds[0].matches) expect(m.gameId).toBe(round1Before[m.id]);
      for (const r of view.rounds) for (const m of r.matches) expect(m.status).toBe('DONE');
      const final = view.rounds[1].matches[0];
      expect(final.entrantIds).toHaveLength(mode === 'SOLO' ? 4 : 2);
      expect(view.standings.filter((s: any) => s.place <= 4)).toHaveLength(4);
      const pool = Math.floor((8 * BUY_IN * 9) / 10);
      const paid = view.payouts.reduce((a: number, p: any) => a + p.amount, 0);
      expect(paid).toBeLessThanOrEqual(pool);
      expect(paid).toBeGreaterThan(pool - 10);
      await f.server.kill();
      f.server = null;

      await withDatabase(f.db, async (q) => {
        const events = await q(`SELECT seq, event FROM tournament_events WHERE tournament_id = $1 ORDER BY seq`, [id]);
        expect(events.length).toBeGreaterThan(Number(atKill.seq)); // written before AND after the kill
        const types = events.map((e: any) => e.event.type);
        expect(types.filter((t: string) => t === 'started')).toHaveLength(1);
        const opened = events.filter((e: any) => e.event.type === 'match_opened').map((e: any) => e.event.matchId);
        expect(opened.slice().sort()).toEqual(['r1m0', 'r1m1', 'r2m0']);
        const played = events.filter((e: any) => e.event.type === 'match_played').map((e: any) => e.event.matchId);
        expect(new Set(played).size).toBe(played.length);
        // one table per match, each finished once
        const tables = await q(`SELECT id FROM games WHERE snapshot->'tournament'->>'tournamentId' = $1`, [id]);
        expect(tables).toHaveLength(3);
        const records = await q(`SELECT game_id FROM game_records WHERE game_id = ANY($1::uuid[])`, [
          tables.map((r: any) => r.id),
        ]);
        expect(records).toHaveLength(3);

        // every payout once; the escrow is empty; balances = before − buy-in + prize; the ledger balances
        const prizes = await q(
          `SELECT a.key, e.amount::text AS amount FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
          WHERE e.reason = 'tournament_prize' AND e.amount > 0`,
        );
        const expectedPrizes = view.payouts.filter((p: any) => p.amount > 0);
        expect(prizes.map((p: any) => `${p.key}=${p.amount}`).sort()).toEqual(
          expectedPrizes.map((p: any) => `user:${p.userId}=${p.amount}`).sort(),
        );
        const buyIns = await q(
          `SELECT count(*)::int AS n FROM coin_entries WHERE reason = 'tournament_buyin' AND amount > 0`,
        );
        expect(buyIns[0].n).toBe(8);
        const [escrow] = await q(`SELECT balance::text AS balance FROM coin_accounts WHERE key = $1`, [
          `escrow:tournament:${id}`,
        ]);
        expect(Number(escrow.balance)).toBe(0);
        for (const c of ps) {
          const prize = view.payouts.find((p: any) => p.userId === c.id)?.amount ?? 0;
          const [row] = await q(`SELECT balance::text AS balance FROM coin_accounts WHERE key = $1`, [`user:${c.id}`]);
          expect(Number(row.balance)).toBe(balanceBefore.get(`user:${c.id}`)! - BUY_IN + prize);
        }
        await expectLedgerBalanced((sql) => q(sql));
      });
    },
    240_000,
  );
});
