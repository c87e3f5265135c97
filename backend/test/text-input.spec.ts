/* eslint-disable @typescript-eslint/no-explicit-any -- raw SQL rows and loose socket acks */
/**
 * Issue #24 item 5: bad characters (NUL, lone surrogates, bidi overrides, zero-width characters, C0 controls) sent
 * through every text field of the protocol get a clear refusal, store nothing and never answer a database error;
 * look-alike usernames are refused; an unexpected error reaches the client only as a generic message with a
 * reference; and a write that cannot be stored never fails the other tables' writes of its group commit.
 * Real app, real HTTP, real socket.io clients; PostgreSQL (TEST_DATABASE_URL) or PGlite.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { nameKey, USERNAME_TAKEN_MESSAGE, WireError } from '@spades/common';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { GamesService } from '../src/games/games.service';
import { TableStore, TableWrite, UNSTORABLE_WRITE } from '../src/games/table.store';
import { UsernameKey1764900000000 } from '../src/database/migrations/1764900000000-username-key';
import { AccountDeletion1765070000000 } from '../src/database/migrations/1765070000000-account-deletion';
import { Client, SETTINGS, useFastTimers } from './games/helpers';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';

/** The characters of the issue, each inside an otherwise valid text. */
const BAD: [string, string][] = [
  ['NUL', '\u0000'],
  ['lone surrogate', '\ud800'],
  ['RLO (bidi override)', '\u202e'],
  ['C0 control', '\u0007'],
  ['escape', '\u001b'],
];
/** What a database error says (it must never reach a client). */
const DB_TEXT =
  /unicode escape|invalid input syntax|invalid byte sequence|QueryFailed|violates|relation|column|jsonb?\b/i;
const REF = /^Something went wrong \(ref [0-9a-f]{6}\)$/;
/** Percent-encodes a path/query part; a lone surrogate (no UTF-8 form) goes as its WTF-8 bytes, what a raw client can send. */
const enc = (s: string) =>
  [...s].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

describe('text input at the boundary (issue #24)', () => {
  let t: TestApp;
  let a: Client;
  let b: Client;
  let gameId: string;
  const count = async (sql: string, params: unknown[] = []) => Number((await t.dataSource.query(sql, params))[0].n);
  const eventsOf = (id: string) => count(`SELECT count(*) AS n FROM game_events WHERE game_id = $1`, [id]);
  const users = () => count(`SELECT count(*) AS n FROM users`);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    useFastTimers();
    t = await createTestApp({ env: { LOG_LEVEL: 'error' }, logStream });
    a = await Client.create(t.url);
    b = await Client.create(t.url);
    const ack = await a.emit('create_game', { settings: SETTINGS });
    expect(ack.ok).toBe(true);
    gameId = ack.gameId;
    expect((await b.emit('join_game', { gameId })).ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    a?.close();
    b?.close();
    await t?.close();
  });

  /** A refusal: clear message (no database text), nothing new stored. */
  function expectRefusal(message: unknown): void {
    expect(typeof message).toBe('string');
    expect(message).not.toMatch(DB_TEXT);
    expect(message).not.toMatch(REF);
  }

  describe('HTTP', () => {
    it('register: a bad character in the username or the e-mail is a 400 with the rule it breaks; no account', async () => {
      for (const [what, c] of BAD) {
        const before = await users();
        const tag = randomBytes(3).toString('hex');
        for (const body of [
          { username: `u${tag}${c}x`, email: `u${tag}@example.test`, password: 'correct horse battery' },
          { username: `u${tag}`, email: `u${tag}${c}@example.test`, password: 'correct horse battery' },
        ]) {
          const r = await api(t.url, 'POST', '/api/auth/register', { body });
          expect({ what, status: r.status }).toEqual({ what, status: 400 });
          expectRefusal(r.body.message);
        }
        expect(await users()).toBe(before);
      }
      const r = await api(t.url, 'POST', '/api/auth/register', {
        body: { username: 'u\u202eadmin', email: 'bidi@example.test', password: 'correct horse battery' },
      });
      expect(r.body.message).toBe('username cannot contain text-direction override characters');
      const z = await api(t.url, 'POST', '/api/auth/register', {
        body: { username: 'zz\u200bx', email: 'zw\u200b@example.test', password: 'correct horse battery' },
      });
      expect(z.status).toBe(400);
      expect(z.body.message).toMatch(/^email cannot contain control characters/);
    });

    it('register: zero-width characters are stripped from a username and it is stored NFKC-normalized', async () => {
      const tag = randomBytes(3).toString('hex');
      const u = await registerUser(t.url, { username: `z\u200b${tag}\ufeff`, email: `z${tag}@example.test` });
      expect(u.user.username).toBe(`z${tag}`);
      const f = await registerUser(t.url, { username: `ｆｗ${tag}`, email: `fw${tag}@example.test` });
      expect(f.user.username).toBe(`fw${tag}`);
      const [row] = await t.dataSource.query(`SELECT username, username_key FROM users WHERE id = $1`, [f.user.id]);
      expect(row).toEqual({ username: `fw${tag}`, username_key: nameKey(`fw${tag}`) });
    });

    it('a password with NUL or a lone surrogate is never a server error (it is hashed, not stored)', async () => {
      for (const c of ['\u0000', '\ud800']) {
        const tag = randomBytes(3).toString('hex');
        const r = await api(t.url, 'POST', '/api/auth/register', {
          body: { username: `p${tag}`, email: `p${tag}@example.test`, password: `correct horse${c}` },
        });
        expect(r.status).toBe(201);
        const login = await api(t.url, 'POST', '/api/auth/login', {
          body: { email: `p${tag}@example.test`, password: `correct horse${c}` },
        });
        expect(login.status).toBe(200);
      }
    });

    it('login: a bad character in the e-mail is a 400, never a database error', async () => {
      for (const [, c] of BAD) {
        const r = await api(t.url, 'POST', '/api/auth/login', {
          body: { email: `x${c}@example.test`, password: 'whatever12' },
        });
        expect(r.status).toBe(400);
        expectRefusal(r.body.message);
      }
    });

    it('rename: a bad character is a 400; the name stays', async () => {
      const u = a.user;
      for (const [what, c] of BAD) {
        const r = await api(t.url, 'PUT', '/api/auth/profile', { token: u.token, body: { username: `n${c}ame1` } });
        expect({ what, status: r.status }).toEqual({ what, status: 400 });
        expectRefusal(r.body.message);
      }
      const [row] = await t.dataSource.query(`SELECT username FROM users WHERE id = $1`, [u.user.id]);
      expect(row.username).toBe(u.user.username);
    });

    it("a look-alike username is refused on register and on rename; a case change of one's own name is fine", async () => {
      const tag = randomBytes(2).toString('hex').replace(/[01]/g, 'f');
      const first = await registerUser(t.url, { username: `adm${tag}1`, email: `adm${tag}@example.test` });
      const before = await users();
      for (const lookalike of [`ADM${tag}I`, `adm${tag}l`, `adm${tag}|`, `ａｄｍ${tag}１`]) {
        const r = await api(t.url, 'POST', '/api/auth/register', {
          body: {
            username: lookalike,
            email: `x${randomBytes(3).toString('hex')}@example.test`,
            password: 'correct horse battery',
          },
        });
        if (lookalike.includes('|')) {
          expect(r.status).toBe(400); // not a username character at all
          continue;
        }
        // the fullwidth one is the same name once normalized: "already taken" (the exact-name index answers first)
        expect({ lookalike, status: r.status }).toEqual({ lookalike, status: 409 });
        expect(r.body.message).toBe(
          lookalike.startsWith('ａ') ? 'That username is already taken' : USERNAME_TAKEN_MESSAGE,
        );
      }
      expect(await users()).toBe(before);
      const other: RegisteredUser = await registerUser(t.url);
      const r = await api(t.url, 'PUT', '/api/auth/profile', { token: other.token, body: { username: `Adm${tag}i` } });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(USERNAME_TAKEN_MESSAGE);
      const [row] = await t.dataSource.query(`SELECT username FROM users WHERE id = $1`, [other.user.id]);
      expect(row.username).toBe(other.user.username);
      const own = await api(t.url, 'PUT', '/api/auth/profile', {
        token: first.token,
        body: { username: `ADM${tag}1` },
      });
      expect(own.status).toBe(200);
      expect(own.body.username).toBe(`ADM${tag}1`);
    });

    it('social and game routes: a bad id, invite or setting is a 4xx with a clear message', async () => {
      for (const [, c] of BAD) {
        for (const path of ['friends', 'block']) {
          const body = path === 'friends' ? { friendId: `id${c}` } : { blockId: `id${c}` };
          const r = await api(t.url, 'POST', `/api/social/${path}`, { token: a.user.token, body });
          expect(r.status).toBeGreaterThanOrEqual(400);
          expect(r.status).toBeLessThan(500);
          expectRefusal(r.body.message);
        }
        for (const [method, path, body] of [
          ['GET', `/api/games/g${enc(c)}`, undefined],
          ['GET', `/api/games/${gameId}?invite=${enc(`x${c}`)}`, undefined],
          ['POST', `/api/games/${gameId}/join`, { invite: `x${c}` }],
          ['POST', '/api/games', { ...SETTINGS, gameMode: `PARTNERS${c}` }],
          ['GET', `/api/users/u${enc(c)}/games`, undefined],
        ] as [string, string, unknown][]) {
          const r = await api(t.url, method, path, { token: b.user.token, body });
          expect({ path, status: r.status < 500 }).toEqual({ path, status: true });
          expectRefusal(r.body.message ?? 'ok');
        }
      }
    });
  });

  describe('sockets', () => {
    it('lobby chat: each bad character is refused with its rule; nothing stored', async () => {
      const before = await count(`SELECT count(*) AS n FROM lobby_chat_messages`);
      for (const [what, text] of [...BAD.map(([w, c]) => [w, `hi${c}there`]), ['zero-width only', '\u200b\u200d']]) {
        const err = new Promise<any>((resolve) => a.socket.once('error' as any, resolve));
        a.socket.emit('lobby_chat_message' as any, text);
        const e = await err;
        expect({ what, event: e.event }).toEqual({ what, event: 'lobby_chat_message' });
        expectRefusal(e.message);
      }
      expect(await count(`SELECT count(*) AS n FROM lobby_chat_messages`)).toBe(before);
    });

    it('table chat: refused with its rule, no event row; zero-width characters are stripped', async () => {
      const before = await eventsOf(gameId);
      for (const [what, c] of BAD) {
        const ack = await a.emit('chat_message', { gameId, message: `hello${c}there` });
        expect({ what, ok: ack.ok }).toEqual({ what, ok: false });
        expectRefusal(ack.message);
      }
      expect((await a.emit('chat_message', { gameId, message: '\u202e' })).message).toBe(
        'A chat message cannot contain text-direction override characters',
      );
      expect(await eventsOf(gameId)).toBe(before);
      const ok = await a.emit('chat_message', { gameId, message: 'g\u200bg' });
      expect(ok.ok).toBe(true);
      const rec = (
        await t.dataSource.query(`SELECT payload FROM game_events WHERE game_id = $1 ORDER BY seq DESC LIMIT 1`, [
          gameId,
        ])
      )[0];
      expect(JSON.stringify(rec.payload)).toContain('"gg"');
    });

    it('actionId on make_bid / play_card / reveal_cards / chat_message: printable ASCII only', async () => {
      const before = await eventsOf(gameId);
      for (const [what, c] of [...BAD, ['zero-width', '\u200b'], ['non-ASCII', 'é']]) {
        for (const [event, extra] of [
          ['make_bid', { bid: 3 }],
          ['play_card', { card: { suit: 'S', rank: 'A' } }],
          ['reveal_cards', {}],
          ['chat_message', { message: 'hello' }],
        ] as [string, object][]) {
          const ack = await a.emit(event, { gameId, ...extra, actionId: `id${c}` });
          expect({ what, event, ack }).toEqual({
            what,
            event,
            ack: {
              ok: false,
              message: 'actionId may only contain printable ASCII characters',
              code: WireError.INVALID_PAYLOAD,
            },
          });
        }
      }
      expect(await eventsOf(gameId)).toBe(before);
    });

    it('gameId, user id, seat and settings strings: clear refusals, never a database error', async () => {
      for (const [what, c] of BAD) {
        for (const [event, payload] of [
          ['join_game', { gameId: `g${c}` }],
          ['join_game_as_spectator', { gameId: `g${c}` }],
          ['chat_message', { gameId: `${gameId}${c}`, message: 'hi' }],
          ['leave_game', { gameId: `g${c}` }],
          ['start_game', `g${c}`],
          ['decline_invitation', { gameId: `g${c}` }],
          ['invite_player', { gameId, userId: `u${c}` }],
          ['fill_seat_with_bot', { gameId, seatIndex: `2${c}` }],
          ['create_game', { settings: { ...SETTINGS, biddingOption: `REG${c}` } }],
          ['create_game', { settings: { ...SETTINGS, gimmick: `SUICIDE${c}` } }],
        ] as [string, unknown][]) {
          const ack = await b.emit(event, payload);
          expect({ what, event, ok: ack.ok }).toEqual({ what, event, ok: false });
          expectRefusal(ack.message);
        }
      }
    });

    it('an unexpected error reaches the client as a generic message with a reference, and is logged with it', async () => {
      const games = t.app.get(GamesService);
      const spy = jest
        .spyOn(games, 'chat')
        .mockRejectedValueOnce(new Error('invalid byte sequence for encoding "UTF8": 0x00'));
      try {
        const ack = await a.emit('chat_message', { gameId, message: 'hello' });
        expect(ack.ok).toBe(false);
        expect(ack.message).toMatch(REF);
        const ref = ack.message.match(/ref ([0-9a-f]{6})/)[1];
        expect(logs.some((l) => l.includes(`[ref ${ref}]`) && l.includes('invalid byte sequence'))).toBe(true);
      } finally {
        spy.mockRestore();
      }
    });

    it('HTTP: an unexpected error is a 500 with a generic message and a reference, logged with it', async () => {
      const games = t.app.get(GamesService);
      const spy = jest.spyOn(games, 'view').mockRejectedValueOnce(new Error('unsupported Unicode escape sequence'));
      try {
        const r = await api(t.url, 'GET', `/api/games/${gameId}`, { token: a.user.token });
        expect(r.status).toBe(500);
        expect(r.body.message).toMatch(REF);
        const ref = r.body.message.match(/ref ([0-9a-f]{6})/)[1];
        expect(logs.some((l) => l.includes(`[ref ${ref}]`) && l.includes('unsupported Unicode escape sequence'))).toBe(
          true,
        );
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('the table store', () => {
    const write = (id: string, seq: number, payload: unknown, actionId: string | null = null): TableWrite => ({
      gameId: id,
      seq,
      type: 'chat',
      actor: null,
      actorKind: 'server',
      actionId,
      payload,
      result: null,
      actions: [],
      delta: null,
      snapshot: null,
      hand: null,
      epoch: null,
    });

    it('a write that cannot be stored is refused alone; the good write of the same group commit lands in it', async () => {
      const store = t.app.get(TableStore);
      // a second table (a third user: a and b are seated at gameId)
      const c = await registerUser(t.url);
      const good = await api(t.url, 'POST', '/api/games', { token: c.token, body: SETTINGS });
      expect(good.status).toBe(201);
      const groups = jest.spyOn(store as any, 'writeGroup');
      try {
        const results = await Promise.allSettled([
          store.append(write(gameId, 9000, { message: 'nul\u0000' })),
          store.append(write(gameId, 9001, { message: 'surrogate\ud800' })),
          store.append(write(gameId, 9002, { message: 'fine' }, 'id\u0000')),
          store.append(write(good.body.id, 9000, { message: 'fine' })),
        ]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled']);
        for (const r of results.slice(0, 3)) expect((r as PromiseRejectedResult).reason.message).toBe(UNSTORABLE_WRITE);
        // one group commit, carrying only the good write (no failed batch, no one-by-one fallback)
        expect(groups).toHaveBeenCalledTimes(1);
        expect((groups.mock.calls[0][0] as any[]).map((r) => r.write.gameId)).toEqual([good.body.id]);
      } finally {
        groups.mockRestore();
      }
      expect(
        await count(`SELECT count(*) AS n FROM game_events WHERE game_id = $1 AND seq = 9000`, [good.body.id]),
      ).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM game_events WHERE game_id = $1 AND seq >= 9000`, [gameId])).toBe(0);
    });

    it('a command whose write is refused answers a clear error and changes nothing, in memory either', async () => {
      const games = t.app.get(GamesService);
      const before = await games.view(gameId, a.id);
      const events = await eventsOf(gameId);
      const from = { userId: a.id, username: a.user.user.username, avatar: null };
      await expect(games.chat(gameId, from, 'bypassing the gateway \u0000')).rejects.toThrow(UNSTORABLE_WRITE);
      const after = await games.view(gameId, a.id);
      expect(after.chat).toEqual(before.chat);
      expect(await eventsOf(gameId)).toBe(events);
      // the table goes on: the next command is stored with the next seq
      expect((await a.emit('chat_message', { gameId, message: 'still here' })).ok).toBe(true);
      expect(await eventsOf(gameId)).toBe(events + 1);
    });
  });

  describe('migration UsernameKey', () => {
    it('keys existing accounts; look-alike old names do not break it (the later ones get a suffixed key)', async () => {
      const m = new UsernameKey1764900000000();
      // the later AccountDeletion migration's trigger watches users.username_key: step back over it and forward again
      const later = new AccountDeletion1765070000000();
      const qr = t.dataSource.createQueryRunner();
      const tag = randomBytes(2).toString('hex').replace(/[01]/g, 'f');
      try {
        await later.down(qr);
        await m.down(qr);
        const rows: { id: string }[] = await qr.query(
          `INSERT INTO users (username, email, created_at) VALUES ($1, NULL, now() - interval '2 days'), ($2, NULL, now() - interval '1 day'), ($3, NULL, now()) RETURNING id`,
          [`old${tag}1`, `OLD${tag}I`, `old${tag}l`],
        );
        await m.up(qr);
        await later.up(qr);
        const keys: { id: string; username_key: string }[] = await qr.query(
          `SELECT id, username_key FROM users WHERE id = ANY($1::uuid[]) ORDER BY created_at`,
          [rows.map((r) => r.id)],
        );
        const key = nameKey(`old${tag}1`);
        expect(keys.map((k) => k.username_key)).toEqual([key, `${key}#${keys[1].id}`, `${key}#${keys[2].id}`]);
        expect(Number((await qr.query(`SELECT count(*) AS n FROM users WHERE username_key IS NULL`))[0].n)).toBe(0);
      } finally {
        // (the embedded database has one connection: released before the app queries again)
        await qr.release();
      }
      // a new name still collides with the oldest one
      const r = await api(t.url, 'POST', '/api/auth/register', {
        body: { username: `Old${tag}i`, email: `old${tag}@example.test`, password: 'correct horse battery' },
      });
      expect(r.status).toBe(409);
    });
  });
});
