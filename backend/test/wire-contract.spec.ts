/* eslint-disable @typescript-eslint/no-explicit-any -- the test sends payloads the event map does not allow */
/**
 * One test table over the protocol (issue #29).
 *
 * Socket: for EVERY client → server event (common's runtime `CLIENT_EVENTS`), a malformed payload gets its DTO's
 * clear answer — the ack `{ ok: false, message, code: INVALID_PAYLOAD }` and an `error { message, event, code }`
 * (or, for `authenticate`, `authenticated { success: false, message }`) — and changes nothing: the table's stored
 * state, the tables, the coins stay as they were. Events whose payload is not read (`unwatch_lobby`, …) are
 * answered `ok` and still change nothing.
 *
 * HTTP: for EVERY route that takes a body (read from Nest's router: the controllers' route and `@Body()`
 * metadata), a malformed body gets 400 `{ message, code: INVALID_PAYLOAD }` with a clear text and changes nothing in the database.
 *
 * An event or a route without a row here fails the test (the socket table is also typed
 * `Record<ClientEventName, …>`, so a new event fails the typecheck).
 */
import { ModulesContainer } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RequestMethod } from '@nestjs/common';
import { CLIENT_EVENTS, WireError, type ClientEventName } from '@spades/common';
import { unexpectedErrorMessage } from '../src/common/error-ref';
import { Client, gamesSuite, SETTINGS, storedTable } from './games/helpers';
import { TestApp } from './support/test-app';

/** refused: by the DTO (code INVALID_PAYLOAD); state: a well-formed message the server's state refuses. */
type Answer = 'refused' | 'state' | 'ignored' | 'authenticated';
type Row = { answer: Answer; payload: (ids: { gameId: string; otherId: string }) => unknown; says?: RegExp };

/** A malformed payload per event, with the answer it must get. */
const TABLE: Record<ClientEventName, Row> = {
  authenticate: { answer: 'authenticated', payload: () => ({ token: 42 }) },
  lobby_chat_message: { answer: 'refused', payload: () => ({ message: { not: 'text' } }) },
  chat_message: { answer: 'refused', payload: ({ gameId }) => ({ gameId, message: 42 }) },
  join_game: { answer: 'refused', payload: ({ gameId }) => ({ gameId, seatIndex: 'north' }), says: /seatIndex/ },
  join_game_as_spectator: { answer: 'refused', payload: ({ gameId }) => ({ gameId, invite: 42 }), says: /invite/ },
  create_game: { answer: 'refused', payload: () => ({ settings: { ...SETTINGS, gameMode: 'CHESS' } }) },
  start_game: { answer: 'refused', payload: () => ({ gameId: 42 }), says: /gameId/ },
  make_bid: { answer: 'refused', payload: ({ gameId }) => ({ gameId, bid: 3, actionId: '' }), says: /actionId/ },
  play_card: {
    answer: 'refused',
    payload: ({ gameId }) => ({ gameId, card: 'AS', actionId: { x: 1 } }),
    says: /actionId/,
  },
  claim: { answer: 'refused', payload: () => ({ gameId: ['x'] }), says: /gameId/ },
  quick_chat: { answer: 'refused', payload: ({ gameId }) => ({ gameId, id: 'no-such-preset' }) },
  start_new_hand: { answer: 'refused', payload: () => ({ gameId: null }), says: /gameId/ },
  play_again: { answer: 'refused', payload: () => ({}), says: /gameId/ },
  leave_game: { answer: 'refused', payload: () => 42, says: /gameId/ },
  fill_seat_with_bot: { answer: 'refused', payload: ({ gameId }) => ({ gameId, seatIndex: 1.5 }), says: /seatIndex/ },
  setup_trick_completion_delay: { answer: 'ignored', payload: () => ({ gameId: 42 }) },
  reveal_cards: {
    answer: 'refused',
    payload: ({ gameId }) => ({ gameId, actionId: 'x'.repeat(101) }),
    says: /actionId/,
  },
  invite_bot: { answer: 'refused', payload: ({ gameId }) => ({ gameId, seatIndex: 'east' }), says: /seatIndex/ },
  remove_bot: {
    answer: 'refused',
    payload: ({ gameId }) => ({ gameId, seatIndex: 1, requesterId: 42 }),
    says: /requesterId/,
  },
  invite_player: { answer: 'refused', payload: ({ gameId }) => ({ gameId, userId: 42 }), says: /userId/ },
  decline_invitation: { answer: 'refused', payload: () => ({ gameId: '' }), says: /gameId/ },
  watch_lobby: { answer: 'refused', payload: () => ({ full: 'yes please' }), says: /full/ },
  unwatch_lobby: { answer: 'ignored', payload: () => 42 },
  quickplay_join: { answer: 'refused', payload: () => ({ mode: 'CHESS' }) },
  quickplay_leave: { answer: 'ignored', payload: () => 42 },
  quickplay_status: { answer: 'ignored', payload: () => 42 },
  quickplay_bots: { answer: 'state', payload: () => 42 },
  play_bots_now: { answer: 'refused', payload: () => ({ mode: 42 }) },
  partner_invite: { answer: 'refused', payload: () => ({ userId: 42 }) },
  partner_accept: { answer: 'refused', payload: () => ({ fromId: 42 }) },
  partner_decline: { answer: 'refused', payload: () => ({ fromId: ['x'] }) },
  watch_tournament: { answer: 'refused', payload: () => ({ tournamentId: 42 }), says: /tournamentId/ },
  unwatch_tournament: { answer: 'refused', payload: () => ({ tournamentId: ['x'] }), says: /tournamentId/ },
};

let t: TestApp;
const suite = gamesSuite((app) => (t = app));

/** What the server knows, for "changes nothing". */
async function state(gameId: string) {
  const table = await storedTable(t, gameId);
  const [games] = await t.dataSource.query(`SELECT count(*)::int AS n FROM games`);
  const [coins] = await t.dataSource.query(
    `SELECT coalesce(sum(balance), 0)::text AS sum, count(*)::int AS n FROM coin_accounts`,
  );
  return { seq: table.seq, snapshot: table.snapshot, games: games.n, coins };
}

/** Emits and collects the answer: the ack (when the event has one) and the `error` / `authenticated` that follow it. */
async function send(c: Client, event: ClientEventName, payload: unknown) {
  const before = c.received.length;
  const ack: any = await new Promise((resolve) => {
    if (event === 'lobby_chat_message' || event === 'authenticate') {
      (c.socket as any).emit(event, payload);
      resolve(null);
    } else (c.socket as any).emit(event, payload, resolve);
  });
  const reply = event === 'authenticate' ? 'authenticated' : 'error';
  if (ack === null || ack.ok === false) {
    await c.waitFor(() => c.received.slice(before).some((r) => r.event === reply), 5000, `${reply} after ${event}`);
  }
  // a round trip on the same socket: anything the event sent has arrived
  await c.emit('setup_trick_completion_delay', {});
  return {
    ack,
    events: c.received.slice(before).filter((r) => r.event !== 'online_users' && r.event !== 'presence_changed'),
  };
}

describe('wire contract: a malformed payload on every socket event', () => {
  let host: Client;
  let other: Client;
  let gameId: string;

  beforeAll(async () => {
    [host, other] = [await suite.client(), await suite.client()];
    const created = await host.emit('create_game', { settings: SETTINGS });
    expect(created.ok).toBe(true);
    gameId = created.gameId;
  });

  it('has a row for every client → server event', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CLIENT_EVENTS].sort());
  });

  it.each(Object.entries(TABLE) as [ClientEventName, Row][])('%s', async (event, row) => {
    const before = await state(gameId);
    const { ack, events } = await send(host, event, row.payload({ gameId, otherId: other.id }));
    const errors = events.filter((r) => r.event === 'error').map((r) => r.payload);
    if (row.answer === 'ignored') {
      expect(ack).toMatchObject({ ok: true });
      expect(errors).toEqual([]);
    } else if (row.answer === 'authenticated') {
      const answers = events.filter((r) => r.event === 'authenticated').map((r) => r.payload);
      expect(answers).toEqual([{ success: false, message: expect.any(String) }]);
    } else {
      const code = row.answer === 'refused' ? { code: WireError.INVALID_PAYLOAD } : {};
      if (ack !== null) expect(ack).toEqual({ ok: false, message: expect.any(String), ...code });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ event, message: expect.any(String), ...code });
      const message: string = errors[0].message;
      if (ack !== null) expect(ack.message).toBe(message);
      // a clear refusal, never the "unexpected error" reference of a crash
      expect(message.length).toBeGreaterThan(3);
      expect(message).not.toMatch(new RegExp(unexpectedErrorMessage('[0-9a-f]+').replace(/[()]/g, '\\$&')));
      if (row.says) expect(message).toMatch(row.says);
    }
    expect(await state(gameId)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------- HTTP

/** Every route that reads a body, as `METHOD /api/path/:param`, from the controllers Nest registered. */
function bodyRoutes(): string[] {
  const routes: string[] = [];
  for (const mod of t.app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as (new (...a: never[]) => object) | null;
      if (!ctrl) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, ctrl) ?? '');
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = (ctrl.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, name) ?? {}) as Record<string, unknown>;
        if (!Object.keys(args).some((k) => k.split(':')[0] === String(RouteParamtypes.BODY))) continue;
        const full = ['api', base, path]
          .map((p) => p.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/');
        routes.push(`${RequestMethod[method]} /${full}`);
      }
    }
  }
  return routes.sort();
}

interface Ids {
  gameId: string;
  userId: string;
  otherId: string;
}
interface HttpRow {
  body: unknown;
  /** Fills the path's parameters (default: every `:param` → the other player's id). */
  params?: (ids: Ids) => Record<string, string>;
  says?: RegExp;
}

const game = ({ gameId }: Ids) => ({ id: gameId });
const NO_ID = '00000000-0000-4000-8000-000000000000';

/** A malformed body per route (the caller is an admin, so staff routes reach their validation). */
const HTTP: Record<string, HttpRow> = {
  'POST /api/admin/invite-codes': { body: { maxUses: 'many', reason: 'x' } },
  'POST /api/admin/invite-codes/:code/revoke': { body: { reason: 42 }, params: () => ({ code: 'ABCD-EFGH-JKMN' }) },
  'POST /api/admin/players/:id/coins': { body: { amount: 'lots', reason: 'because' } },
  'POST /api/admin/players/:id/revoke-sessions': { body: { reason: 42 } },
  'POST /api/admin/players/:id/role': { body: { role: 'emperor', reason: 'because' } },
  'POST /api/admin/players/:id/sanctions': { body: { kind: 'exile', reason: 'because' } },
  'POST /api/admin/reports/:id/assign': { body: { assigneeId: 42, reason: 'because' }, params: () => ({ id: NO_ID }) },
  'POST /api/admin/reports/:id/dismiss': { body: { reason: 42 }, params: () => ({ id: NO_ID }) },
  'POST /api/admin/reports/:id/resolve': { body: { action: 'ban', reason: 'x' }, params: () => ({ id: NO_ID }) },
  'POST /api/admin/sanctions/:id/lift': { body: { reason: 42 }, params: () => ({ id: NO_ID }) },
  'POST /api/admin/setup': { body: { token: 42 } },
  'POST /api/admin/tables/:id/close': { body: { reason: 42 }, params: game },
  'POST /api/admin/tables/:id/remove-player': { body: { userId: 42, reason: 'because' }, params: game },
  'POST /api/admin/tournaments': { body: { name: 42 }, says: /name must be 3 to/ },
  'POST /api/admin/tournaments/:id/cancel': { body: { reason: 42 }, params: () => ({ id: NO_ID }), says: /reason/ },
  'POST /api/auth/login': { body: { email: 42, password: 'x' }, says: /email/ },
  'POST /api/auth/register': { body: { username: 'ok_name', email: 'not-an-email', password: 'secret123' } },
  'POST /api/games': { body: { gameMode: 'CHESS' } },
  'POST /api/games/:id/invite': { body: { userId: 42 }, params: game, says: /userId/ },
  'POST /api/games/:id/invite-bot': { body: { seatIndex: 'north' }, params: game, says: /seatIndex/ },
  'POST /api/games/:id/invite-bot-midgame': { body: { seatIndex: 7 }, params: game, says: /seatIndex/ },
  'POST /api/games/:id/join': { body: { seatIndex: 1.5 }, params: game, says: /seatIndex/ },
  'POST /api/games/:id/remove-bot': { body: { seatIndex: -1 }, params: game, says: /seatIndex/ },
  'POST /api/games/:id/remove-bot-midgame': { body: {}, params: game, says: /seatIndex/ },
  'POST /api/games/:id/remove-player': { body: { userId: ['x'] }, params: game, says: /userId/ },
  'POST /api/games/:id/replay/shares': { body: { game: 'latest' }, params: game, says: /game must be an integer/ },
  'POST /api/games/:id/spectate': { body: { invite: 42 }, params: game, says: /invite/ },
  'POST /api/quickplay/bots': { body: { level: 'godlike' }, says: /level/ },
  'POST /api/reports': { body: { userId: 42, category: 'rude' } },
  'POST /api/social/block': { body: { userId: 42 } },
  'POST /api/social/friends/add': { body: { userId: 42 } },
  'POST /api/social/friends/remove': { body: { userId: 42 } },
  'POST /api/social/unblock': { body: { userId: 42 } },
  'POST /api/tournaments': { body: { name: 42 }, says: /name must be 3 to/ },
  'POST /api/tournaments/:id/register': { body: { partnerId: 42 }, params: () => ({ id: NO_ID }), says: /partnerId/ },
  'POST /api/users/me/deletion': { body: { confirm: 42 } },
  'PUT /api/admin/settings': { body: { changes: 'everything', reason: 'because' } },
  'PUT /api/auth/profile': { body: { username: 42 } },
  'PUT /api/users/me/options': { body: { sound: 'loud' } },
};

/** Heartbeats the node writes on its own (its liveness row, the scheduler's leases), not state a request changes. */
const HEARTBEATS = new Set(['backend_nodes', 'scheduler_leases']);

/** The whole database, for "changes nothing": every table's rows (heartbeats aside), hashed. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables: { name: string }[] = await t.dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables.filter((x) => !HEARTBEATS.has(x.name))) {
    const [row] = await t.dataSource.query(
      `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${name}" x`,
    );
    out[name] = row.h;
  }
  return out;
}

describe('wire contract: a malformed body on every HTTP route', () => {
  let admin: Client;
  let other: Client;
  let ids: Ids;

  beforeAll(async () => {
    [admin, other] = [await suite.client(), await suite.client()];
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id]);
    const created = await admin.emit('create_game', { settings: SETTINGS });
    expect(created.ok).toBe(true);
    ids = { gameId: created.gameId, userId: admin.id, otherId: other.id };
  });

  it('has a row for every route that reads a body', () => {
    expect(Object.keys(HTTP).sort()).toEqual(bodyRoutes());
  });

  it.each(Object.keys(HTTP).sort())('%s', async (route) => {
    const row = HTTP[route];
    const [method, pattern] = route.split(' ');
    const params = row.params?.(ids) ?? {};
    const path = pattern.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p] ?? ids.otherId));
    const before = await fingerprint();
    const res = await admin.http(t.url, method, path, row.body);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { message: expect.any(String), code: WireError.INVALID_PAYLOAD },
    });
    const message: string = res.body.message;
    expect(message.length).toBeGreaterThan(3);
    expect(message).not.toMatch(/Internal server error|unexpected error/i);
    if (row.says) expect(message).toMatch(row.says);
    expect(await fingerprint()).toEqual(before);
  });
});
