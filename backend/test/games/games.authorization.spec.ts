/**
 * Authorization matrix (spec §5/§6), table-driven over the socket and HTTP where both exist, against a real
 * server and database: who may remove/invite bots while WAITING and mid-game, who may fill a vacated seat,
 * and that spectators and outsiders cannot drive a table. A refusal answers an `error` event (socket) or a
 * 4xx (HTTP) and changes nothing (the stored snapshot version stays the same).
 */
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS, storedTable, waitHumanTurn } from './helpers';

type Transport = 'socket' | 'http';
const TRANSPORTS: Transport[] = ['socket', 'http'];

interface Table {
  gameId: string;
  host: Client;
  /** The second human at the table. */
  other: Client;
  spectator: Client;
  outsider: Client;
}

type Who = 'host' | 'other' | 'spectator' | 'outsider';

describe('games authorization matrix (integration)', () => {
  let t: TestApp;
  // a long result dialog: the result timer never changes a table while a refusal is being checked
  const { client } = gamesSuite((app) => (t = app), { RESULT_MS: '600000' });

  /** host in seat 0, `other` in `otherSeat`, bots in `bots`, a spectator and an outsider; started when `start`. */
  async function table(otherSeat: number, bots: number[], start: boolean): Promise<Table> {
    const [host, other, spectator, outsider] = [await client(), await client(), await client(), await client()];
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await other.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: otherSeat })).status).toBe(200);
    for (const s of bots)
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    for (const c of [host, other]) await c.emit('join_game', { gameId });
    expect((await spectator.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    if (start) {
      expect((await host.emit('start_game', { gameId })).ok).toBe(true);
      await waitHumanTurn(t, gameId);
    }
    return { gameId, host, other, spectator, outsider };
  }

  async function close(tb: Table): Promise<void> {
    for (const c of [tb.host, tb.other, tb.spectator]) await c.emit('leave_game', { gameId: tb.gameId });
  }

  /** Sends a bot command over one transport; resolves with {ok, message}. Socket refusals must also emit `error`. */
  async function botCommand(
    transport: Transport,
    c: Client,
    gameId: string,
    command: 'remove' | 'invite' | 'fill',
    midgame: boolean,
    seatIndex: number,
  ): Promise<{ ok: boolean; message?: string }> {
    if (transport === 'http') {
      const path = command === 'remove' ? 'remove-bot' : 'invite-bot';
      const r = await c.http(t.url, 'POST', `/api/games/${gameId}/${path}${midgame ? '-midgame' : ''}`, {
        seatIndex,
        requesterId: c.id,
      });
      return r.status === 200 ? { ok: true } : { ok: false, message: r.body?.message };
    }
    const event = command === 'remove' ? 'remove_bot' : command === 'invite' ? 'invite_bot' : 'fill_seat_with_bot';
    return socketCommand(c, event, { gameId, seatIndex });
  }

  async function socketCommand(
    c: Client,
    event: string,
    payload: Record<string, unknown>,
  ): Promise<{ ok: boolean; message?: string }> {
    const errorsBefore = c.errors.length;
    const ack = await c.emit(event, payload);
    if (!ack.ok) {
      await c.waitFor(() => c.errors.length > errorsBefore, 3000, `error event for ${event}`);
      expect(c.errors.at(-1)).toBe(ack.message);
    }
    return ack;
  }

  async function expectRefusedUnchanged(
    gameId: string,
    fn: () => Promise<{ ok: boolean; message?: string }>,
    message?: string,
  ): Promise<void> {
    const before = await storedTable(t, gameId);
    const r = await fn();
    expect(r.ok).toBe(false);
    if (message) expect(r.message).toBe(message);
    const after = await storedTable(t, gameId);
    expect(after.seq).toBe(before.seq);
    expect(after.snapshot).toEqual(before.snapshot);
  }

  describe('mid-game bot removal (spec §5: the human opposite the bot, or the host when the opposite seat is a bot too)', () => {
    // host seat 0; `other` and the bots as given; the bot to remove in `seat`
    const cases: {
      name: string;
      otherSeat: number;
      bots: number[];
      seat: number;
      by: Who;
      allowed: boolean;
      message?: string;
    }[] = [
      { name: 'the human opposite the bot', otherSeat: 1, bots: [2, 3], seat: 3, by: 'other', allowed: true },
      {
        name: 'the host, the opposite seat being a bot too',
        otherSeat: 2,
        bots: [1, 3],
        seat: 1,
        by: 'host',
        allowed: true,
      },
      {
        name: 'the host, the opposite seat being a human',
        otherSeat: 1,
        bots: [2, 3],
        seat: 3,
        by: 'host',
        allowed: false,
        message: 'Only the player opposite that seat can do that',
      },
      {
        name: 'a seated non-host, the opposite seat being a bot',
        otherSeat: 2,
        bots: [1, 3],
        seat: 1,
        by: 'other',
        allowed: false,
        message: 'Only the host can do that',
      },
      {
        name: 'a spectator',
        otherSeat: 1,
        bots: [2, 3],
        seat: 3,
        by: 'spectator',
        allowed: false,
        message: 'Only seated players can do that',
      },
      {
        name: 'an outsider',
        otherSeat: 1,
        bots: [2, 3],
        seat: 3,
        by: 'outsider',
        allowed: false,
        message: 'Only seated players can do that',
      },
    ];
    for (const transport of TRANSPORTS) {
      for (const c of cases) {
        it(`${transport}: ${c.name} → ${c.allowed ? 'allowed' : 'refused'}`, async () => {
          const tb = await table(c.otherSeat, c.bots, true);
          const send = () => botCommand(transport, tb[c.by], tb.gameId, 'remove', true, c.seat);
          if (c.allowed) {
            expect(await send()).toEqual({ ok: true });
            const s = (await storedTable(t, tb.gameId)).snapshot;
            expect(s.seats[c.seat]).toBeNull();
            expect(s.replacements[c.seat]).toEqual(expect.any(Number));
          } else {
            await expectRefusedUnchanged(tb.gameId, send, c.message);
          }
          await close(tb);
        });
      }
    }
  });

  describe('filling a vacated seat mid-game: only the human opposite (else the host)', () => {
    for (const transport of TRANSPORTS) {
      it(`${transport}: the host (not opposite), a spectator and an outsider are refused; the player opposite fills it`, async () => {
        const tb = await table(1, [2, 3], true);
        expect(await botCommand(transport, tb.other, tb.gameId, 'remove', true, 3)).toEqual({ ok: true });
        await waitHumanTurn(t, tb.gameId);
        for (const by of ['host', 'spectator', 'outsider'] as const) {
          await expectRefusedUnchanged(tb.gameId, () => botCommand(transport, tb[by], tb.gameId, 'fill', true, 3));
        }
        expect(await botCommand(transport, tb.other, tb.gameId, 'fill', true, 3)).toEqual({ ok: true });
        expect((await storedTable(t, tb.gameId)).snapshot.seats[3]?.kind).toBe('bot');
        await close(tb);
      });
    }
  });

  describe('while WAITING only the host invites or removes bots', () => {
    for (const transport of TRANSPORTS) {
      it(`${transport}: a seated non-host, a spectator and an outsider are refused; the host may`, async () => {
        const tb = await table(1, [2], false);
        for (const by of ['other', 'spectator', 'outsider'] as const) {
          await expectRefusedUnchanged(tb.gameId, () => botCommand(transport, tb[by], tb.gameId, 'invite', false, 3));
          await expectRefusedUnchanged(tb.gameId, () => botCommand(transport, tb[by], tb.gameId, 'remove', false, 2));
          if (transport === 'socket') {
            await expectRefusedUnchanged(tb.gameId, () => botCommand(transport, tb[by], tb.gameId, 'fill', false, 3));
          }
        }
        expect(await botCommand(transport, tb.host, tb.gameId, 'invite', false, 3)).toEqual({ ok: true });
        expect(await botCommand(transport, tb.host, tb.gameId, 'remove', false, 2)).toEqual({ ok: true });
        await close(tb);
      });
    }
  });

  describe('spectators and outsiders cannot drive a table', () => {
    it('start_game (socket and HTTP) on a full WAITING table', async () => {
      const tb = await table(1, [2, 3], false);
      for (const by of ['spectator', 'outsider'] as const) {
        await expectRefusedUnchanged(
          tb.gameId,
          () => socketCommand(tb[by], 'start_game', { gameId: tb.gameId }),
          'Only the host can start the game',
        );
        await expectRefusedUnchanged(tb.gameId, async () => {
          const r = await tb[by].http(t.url, 'POST', `/api/games/${tb.gameId}/start`, {});
          expect(r.status).toBe(403);
          return { ok: false, message: r.body.message };
        });
      }
      await close(tb);
    });

    it('play_again, start_new_hand, make_bid, play_card and (outsider) leave_game during a game', async () => {
      const tb = await table(1, [2, 3], true);
      const s = (await storedTable(t, tb.gameId)).snapshot;
      // a card really in a player's hand, and a legal-looking bid: refused only because of who sends them
      const card = s.engine.hands[0][0];
      for (const by of ['spectator', 'outsider'] as const) {
        const c = tb[by];
        const gameId = tb.gameId;
        for (const [event, payload] of [
          ['play_again', { gameId }],
          ['start_new_hand', { gameId }],
          ['make_bid', { gameId, bid: 3, actionId: `${by}-b` }],
          ['make_bid', { gameId, bid: 3 }],
          ['play_card', { gameId, card, actionId: `${by}-p` }],
          ['play_card', { gameId, card }],
          ['reveal_cards', { gameId }],
        ] as const) {
          await expectRefusedUnchanged(gameId, () => socketCommand(c, event, payload));
        }
      }
      await expectRefusedUnchanged(
        tb.gameId,
        () => socketCommand(tb.outsider, 'leave_game', { gameId: tb.gameId }),
        'You are not at this table',
      );
      await expectRefusedUnchanged(tb.gameId, async () => {
        const r = await tb.outsider.http(t.url, 'POST', `/api/games/${tb.gameId}/leave`, {});
        expect(r.status).toBe(400);
        return { ok: false, message: r.body.message };
      });
      // a spectator's leave_game only stops watching: no seat, turn, hand or timer changes
      const before = (await storedTable(t, tb.gameId)).snapshot;
      expect((await tb.spectator.emit('leave_game', { gameId: tb.gameId })).ok).toBe(true);
      const after = (await storedTable(t, tb.gameId)).snapshot;
      expect(after.spectators).toEqual([]);
      // …and is announced in the game chat (issue 15)
      expect(after.chat.slice(0, -1)).toEqual(before.chat);
      expect(after.chat.at(-1)).toMatchObject({
        userId: 'system',
        message: `${tb.spectator.user.user.username} stopped watching.`,
      });
      expect({ ...after, spectators: [], departed: [], chat: [] }).toEqual({
        ...before,
        spectators: [],
        departed: [],
        chat: [],
      });
      await close(tb);
    });

    it('play_again and start_new_hand from a spectator/outsider at the moments they apply', async () => {
      const tb = await table(1, [2, 3], false);
      for (const c of [tb.host, tb.other]) c.auto = true;
      expect((await tb.host.emit('start_game', { gameId: tb.gameId })).ok).toBe(true);
      await tb.host.waitFor(() => tb.host.view?.status === 'COMPLETED', 60000, 'game over');
      for (const c of [tb.host, tb.other]) c.auto = false;
      // the result dialog is up (last trick cleared): only the (long) result timer is pending
      while ((await storedTable(t, tb.gameId)).snapshot.flow?.kind !== 'result')
        await new Promise((r) => setTimeout(r, 15));
      for (const by of ['spectator', 'outsider'] as const) {
        await expectRefusedUnchanged(
          tb.gameId,
          () => socketCommand(tb[by], 'play_again', { gameId: tb.gameId }),
          'You are not seated at this table',
        );
        await expectRefusedUnchanged(
          tb.gameId,
          () => socketCommand(tb[by], 'start_new_hand', { gameId: tb.gameId }),
          'You are not seated at this table',
        );
      }
      await close(tb);
    });
  });
});
