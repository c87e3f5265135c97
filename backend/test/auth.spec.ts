import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { STARTING_COINS, WireError } from '@spades/common';
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { api, createTestApp, registerUser, TestApp, uniqueName } from './support/test-app';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const WEBP_HEAD = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

function forge(payload: object, secret: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = b64({ alg: 'HS256', typ: 'JWT' });
  const body = b64(payload);
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

describe('auth: register, login, profile', () => {
  let t: TestApp;
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const secretsSeen: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '5', LOGIN_MAX_FAILURES_PER_IP: '12', LOG_LEVEL: 'debug' },
      logStream,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const userCount = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n);

  it('registers, grants 5,000,000 coins from the house through the ledger, and returns token + user', async () => {
    const r = await registerUser(t.url, { username: 'Alice_1' });
    expect(r.token).toEqual(expect.any(String));
    expect(r.user).toMatchObject({ username: 'Alice_1', email: r.email, coins: STARTING_COINS, avatar: null });
    expect(r.user.stats.gamesPlayed).toBe(0);
    expect(JSON.stringify(r.user)).not.toMatch(/password/i);
    const entries = await t.dataSource.query(
      `SELECT e.amount::text AS amount, e.reason, a.kind FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
        WHERE e.ref_id = $1 ORDER BY e.amount`,
      [r.user.id],
    );
    expect(entries).toEqual([
      { amount: String(-STARTING_COINS), reason: 'registration_grant', kind: 'house' },
      { amount: String(STARTING_COINS), reason: 'registration_grant', kind: 'user' },
    ]);
    const [{ hash }] = await t.dataSource.query(`SELECT password_hash AS hash FROM users WHERE id = $1`, [r.user.id]);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('rejects duplicate usernames and e-mails case-insensitively with 409 and a clear message', async () => {
    const a = await registerUser(t.url);
    const before = await userCount();
    const dupName = await api(t.url, 'POST', '/api/auth/register', {
      body: { username: a.user.username.toUpperCase(), email: `x${a.email}`, password: 'longenough1' },
    });
    expect(dupName.status).toBe(409);
    expect(dupName.body).toEqual({ message: 'That username is already taken' });
    const dupMail = await api(t.url, 'POST', '/api/auth/register', {
      body: { username: uniqueName(), email: a.email.toUpperCase(), password: 'longenough1' },
    });
    expect(dupMail.status).toBe(409);
    expect(dupMail.body).toEqual({ message: 'An account with this email already exists' });
    expect(await userCount()).toBe(before);
  });

  it.each([
    [{ username: 'ab', email: 'a@b.co', password: 'longenough' }, /username must be 3–20/],
    [{ username: 'bad name!', email: 'a@b.co', password: 'longenough' }, /username must be 3–20/],
    [{ username: 'x'.repeat(21), email: 'a@b.co', password: 'longenough' }, /username must be 3–20/],
    [{ username: 'okname', email: 'not-an-email', password: 'longenough' }, /valid email/],
    [{ username: 'okname', email: 'a@b.co', password: 'short' }, /password must be 8–128/],
    [{ username: 'okname', email: 'a@b.co', password: 'p'.repeat(129) }, /password must be 8–128/],
    [{ username: 'okname', email: 'a@b.co' }, /password is required/],
    [{ username: 12345, email: 'a@b.co', password: 'longenough' }, /username must be a string/],
    [{ username: 'okname', email: ['a@b.co'], password: 'longenough' }, /email must be a string/],
    [{ username: 'okname', email: 'a@b.co', password: 'longenough', coins: 999 }, /property coins should not exist/],
    [
      { username: 'okname', email: 'a@b.co', password: 'longenough', isAdmin: true },
      /property isAdmin should not exist/,
    ],
  ])('register rejects %j with 400', async (body, msg) => {
    const before = await userCount();
    const r = await api<{ message: string }>(t.url, 'POST', '/api/auth/register', { body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: expect.stringMatching(msg), code: WireError.INVALID_PAYLOAD });
    expect(await userCount()).toBe(before);
  });

  it('malformed JSON, non-object bodies and oversized bodies are 4xx with { message }', async () => {
    const bad = await api(t.url, 'POST', '/api/auth/register', { rawBody: '{"username": "x",' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Malformed JSON body' });
    const arr = await api(t.url, 'POST', '/api/auth/login', { rawBody: '[1,2]' });
    expect(arr.status).toBe(400);
    expect((arr.body as { message: string }).message).toEqual(expect.any(String));
    const huge = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(2_000_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: 'Request body is too large' });
    const noBody = await api(t.url, 'POST', '/api/auth/login');
    expect(noBody.status).toBe(400);
  });

  it('logs in with the right password (e-mail case-insensitive) and fails generically otherwise', async () => {
    const u = await registerUser(t.url, { password: 'Sup3r-Secret-Passw0rd' });
    secretsSeen.push(u.password, u.token);
    const ok = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: u.email.toUpperCase(), password: u.password },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token: expect.any(String), user: { id: u.user.id, coins: STARTING_COINS } });
    const wrong = await api(t.url, 'POST', '/api/auth/login', { body: { email: u.email, password: 'wrong password' } });
    const unknown = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: 'nobody@example.test', password: 'whatever1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
    secretsSeen.push((ok.body as { token: string }).token);
    // a token in a query string (as in the OAuth redirect) is not logged either
    await api(t.url, 'GET', `/api/auth/profile?token=${u.token}`, { token: u.token });
  });

  it('GET /api/auth/profile needs a valid token: missing, malformed, forged, expired and deleted-user tokens are 401', async () => {
    const u = await registerUser(t.url);
    const ok = await api(t.url, 'GET', '/api/auth/profile', { token: u.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: u.user.id, username: u.user.username, coins: STARTING_COINS });

    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${u.token}` }],
      ['garbage', { authorization: 'Bearer abc.def.ghi' }],
      [
        'forged (other secret)',
        { authorization: `Bearer ${forge({ sub: u.user.id, iat: now, exp: now + 600 }, 'x'.repeat(40))}` },
      ],
      [
        'expired',
        { authorization: `Bearer ${forge({ sub: u.user.id, iat: now - 7200, exp: now - 3600 }, t.config.jwtSecret)}` },
      ],
      [
        'alg none',
        {
          authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: u.user.id })).toString('base64url')}.`,
        },
      ],
      [
        'unknown user',
        {
          authorization: `Bearer ${forge({ sub: '00000000-0000-4000-8000-000000000000', iat: now, exp: now + 600 }, t.config.jwtSecret)}`,
        },
      ],
    ];
    for (const [name, headers] of cases) {
      const r = await api(t.url, 'GET', '/api/auth/profile', { headers });
      expect([name, r.status]).toEqual([name, 401]);
      expect(Object.keys(r.body as object)).toEqual(['message']);
    }
    // the server's own secret does sign valid tokens
    const valid = forge({ sub: u.user.id, iat: now, exp: now + 600 }, t.config.jwtSecret);
    expect(
      (await api(t.url, 'GET', '/api/auth/profile', { headers: { authorization: `Bearer ${valid}` } })).status,
    ).toBe(200);
    // a PUT with a forged token changes nothing
    const put = await api(t.url, 'PUT', '/api/auth/profile', {
      headers: cases[3][1],
      body: { username: 'hacked_name' },
    });
    expect(put.status).toBe(401);
    const [row] = await t.dataSource.query(`SELECT username FROM users WHERE id = $1`, [u.user.id]);
    expect(row.username).toBe(u.user.username);
  });

  it('every authenticated endpoint: missing, forged, expired and alg:none tokens are 401 { message }, nothing changes', async () => {
    const owner = await registerUser(t.url);
    const target = await registerUser(t.url);
    const settings = {
      gameMode: 'PARTNERS',
      biddingOption: 'REG',
      gamePlayOption: 'REG',
      minPoints: -100,
      maxPoints: 100,
      buyIn: 100000,
      specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
    };
    const created = await api(t.url, 'POST', '/api/games', { token: owner.token, body: settings });
    expect(created.status).toBe(201);
    const gameId = (created.body as { id: string }).id;
    const gameView = async () => {
      const { serverTime: _clock, ...view } = (await api(t.url, 'GET', `/api/games/${gameId}`, { token: owner.token }))
        .body as Record<string, unknown>;
      return view;
    };
    const viewBefore = await gameView();

    // every table of the schema, row by row (users, relations, ledger, games…); the node registry's heartbeat
    // rewrites heartbeat_at, draining, live_tables and bot_queue by itself every few seconds (cluster.nodes.ts),
    // so only the node's identity is compared there; the scheduler takes and renews its lease on its own timer (the
    // first take may fall inside this test), so its table is left out like any heartbeat
    const rowOf: Record<string, string> = { backend_nodes: '(x.id, x.started_at)' };
    const HEARTBEATS = new Set(['scheduler_leases']);
    const snapshot = async () => {
      const tables: { table_name: string }[] = await t.dataSource.query(
        `SELECT table_name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      );
      const out: Record<string, string> = {};
      for (const { table_name } of tables.filter((x) => !HEARTBEATS.has(x.table_name))) {
        const [row] = await t.dataSource.query(
          `SELECT count(*)::text || ':' || coalesce(md5(string_agg(r::text, '|' ORDER BY r::text)), '') AS h
             FROM (SELECT ${rowOf[table_name] ?? 'x'} AS r FROM "${table_name}" x) y`,
        );
        out[table_name] = row.h;
      }
      return out;
    };
    const before = await snapshot();

    // the tokens all claim to be the owner (who could otherwise act on every endpoint below)
    const now = Math.floor(Date.now() / 1000);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const tokens: [string, string | undefined][] = [
      ['no token', undefined],
      ['forged (wrong secret)', forge({ sub: owner.user.id, iat: now, exp: now + 600 }, 'w'.repeat(40))],
      ['expired', forge({ sub: owner.user.id, iat: now - 7200, exp: now - 3600 }, t.config.jwtSecret)],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: owner.user.id, iat: now, exp: now + 600 })}.`],
    ];
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/api/auth/profile'],
      ['PUT', '/api/auth/profile', { username: uniqueName('hijack') }],
      ['GET', '/api/users'],
      ['GET', `/api/users/${target.user.id}/stats`],
      ['POST', '/api/social/friends/add', { friendId: target.user.id }],
      ['POST', '/api/social/friends/remove', { friendId: target.user.id }],
      ['POST', '/api/social/block', { blockId: target.user.id }],
      ['POST', '/api/social/unblock', { blockId: target.user.id }],
      ['GET', '/api/leaderboard?by=coins'],
      ['GET', '/api/games'],
      ['POST', '/api/games', settings],
      ['GET', `/api/games/${gameId}`],
      ['POST', `/api/games/${gameId}/join`, { seatIndex: 1 }],
      ['POST', `/api/games/${gameId}/spectate`],
      ['POST', `/api/games/${gameId}/leave`],
      ['POST', `/api/games/${gameId}/start`],
      ['POST', `/api/games/${gameId}/invite-bot`, { seatIndex: 1 }],
      ['POST', `/api/games/${gameId}/remove-bot`, { seatIndex: 1 }],
    ];
    const failures: string[] = [];
    for (const [method, path, body] of endpoints) {
      // sanity: the endpoint exists and is guarded (a valid token is not a 401/404)
      if (method === 'GET') {
        const ok = await api(t.url, method, path, { token: owner.token });
        if (ok.status !== 200) failures.push(`${method} ${path} with a valid token: ${ok.status}`);
      }
      for (const [name, token] of tokens) {
        const r = await api(t.url, method, path, {
          body,
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        });
        const b = r.body as { message?: unknown } | undefined;
        if (r.status !== 401 || typeof b?.message !== 'string' || Object.keys(b).length !== 1)
          failures.push(`${method} ${path} (${name}): ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await gameView()).toEqual(viewBefore);
  });

  it('PUT /api/auth/profile changes username and avatar (png, jpeg, webp) and can remove the avatar', async () => {
    const u = await registerUser(t.url);
    const name = uniqueName('ren');
    const png = `data:image/png;base64,${PNG_1PX}`;
    const r1 = await api(t.url, 'PUT', '/api/auth/profile', { token: u.token, body: { username: name, avatar: png } });
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({ id: u.user.id, username: name, avatar: png, coins: STARTING_COINS });
    for (const avatar of [dataUrl('image/jpeg', JPEG_HEAD), dataUrl('image/webp', WEBP_HEAD)]) {
      const r = await api(t.url, 'PUT', '/api/auth/profile', { token: u.token, body: { username: name, avatar } });
      expect(r.status).toBe(200);
      expect((r.body as { avatar: string }).avatar).toBe(avatar);
    }
    const cleared = await api(t.url, 'PUT', '/api/auth/profile', { token: u.token, body: { avatar: null } });
    expect(cleared.status).toBe(200);
    expect((cleared.body as { avatar: null }).avatar).toBeNull();
    const profile = await api(t.url, 'GET', '/api/auth/profile', { token: u.token });
    expect(profile.body).toMatchObject({ username: name, avatar: null });
  });

  it.each([
    ['a GIF', dataUrl('image/gif', Buffer.from('GIF89a....')), /JPEG, PNG or WebP/],
    ['SVG', `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`, /JPEG, PNG or WebP/],
    ['not a data URL', 'https://example.com/a.png', /data URL/],
    ['bad base64', 'data:image/png;base64,@@@@', /not valid base64/],
    ['PNG label with JPEG bytes', dataUrl('image/png', JPEG_HEAD), /not a valid PNG image/],
    ['JPEG label with text', dataUrl('image/jpeg', Buffer.from('hello world, not an image')), /not a valid JPEG image/],
    ['too large', dataUrl('image/jpeg', Buffer.concat([JPEG_HEAD, Buffer.alloc(600 * 1024)])), /at most 512 KB/],
    ['a number', 42, /avatar must be a data URL string or null/],
  ])('PUT /api/auth/profile rejects %s with 400 and keeps the old avatar', async (_name, avatar, msg) => {
    const u = await registerUser(t.url);
    const png = `data:image/png;base64,${PNG_1PX}`;
    await api(t.url, 'PUT', '/api/auth/profile', { token: u.token, body: { avatar: png } });
    const r = await api<{ message: string }>(t.url, 'PUT', '/api/auth/profile', {
      token: u.token,
      body: { username: u.user.username, avatar },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(msg);
    const [row] = await t.dataSource.query(`SELECT avatar FROM users WHERE id = $1`, [u.user.id]);
    expect(row.avatar).toBe(png);
  });

  it('PUT /api/auth/profile rejects taken usernames, invalid ones, extra fields and empty bodies', async () => {
    const a = await registerUser(t.url);
    const b = await registerUser(t.url);
    const taken = await api(t.url, 'PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: a.user.username.toLowerCase() },
    });
    expect(taken.status).toBe(409);
    const invalid = await api(t.url, 'PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: 'no spaces allowed' },
    });
    expect(invalid.status).toBe(400);
    const extra = await api(t.url, 'PUT', '/api/auth/profile', {
      token: b.token,
      body: { username: uniqueName(), coins: 1e9 },
    });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ message: 'property coins should not exist', code: WireError.INVALID_PAYLOAD });
    const empty = await api(t.url, 'PUT', '/api/auth/profile', { token: b.token, body: {} });
    expect(empty.status).toBe(400);
    const [row] = await t.dataSource.query(`SELECT username FROM users WHERE id = $1`, [b.user.id]);
    expect(row.username).toBe(b.user.username);
    expect(
      Number((await api<{ coins: number }>(t.url, 'GET', '/api/auth/profile', { token: b.token })).body.coins),
    ).toBe(STARTING_COINS);
  });

  it('Discord login answers a clear 503 when it is not configured', async () => {
    for (const path of ['/api/auth/discord', '/api/auth/discord/callback?code=x&state=y']) {
      const r = await api(t.url, 'GET', path);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ message: 'Discord login is not configured on this server' });
    }
  });

  it('rate-limits failed logins per account (even the right password is refused while limited)', async () => {
    const u = await registerUser(t.url);
    for (let i = 0; i < 5; i++) {
      const r = await api(t.url, 'POST', '/api/auth/login', { body: { email: u.email, password: `wrong-${i}-pass` } });
      expect(r.status).toBe(401);
    }
    const limited = await api<{ message: string }>(t.url, 'POST', '/api/auth/login', {
      body: { email: u.email, password: u.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many failed login attempts/);
    // other accounts are not affected by this account's limit
    const other = await registerUser(t.url);
    expect(
      (await api(t.url, 'POST', '/api/auth/login', { body: { email: other.email, password: other.password } })).status,
    ).toBe(200);
  });

  it('rate-limits failed logins per IP across accounts', async () => {
    // 12 failures per IP in this suite (earlier tests already used some of them)
    let status = 0;
    let attempts = 0;
    while (attempts < 13) {
      attempts++;
      const r = await api(t.url, 'POST', '/api/auth/login', {
        body: { email: `${uniqueName()}@example.test`, password: 'nope-nope' },
      });
      status = r.status;
      if (status === 429) break;
      expect(status).toBe(401);
    }
    expect(status).toBe(429);
    // the IP is now limited: even a correct login of an account without failures is refused
    const fresh = await registerUser(t.url);
    const r = await api(t.url, 'POST', '/api/auth/login', { body: { email: fresh.email, password: fresh.password } });
    expect(r.status).toBe(429);
  });

  it('structured logs record requests but never passwords or tokens', async () => {
    expect(secretsSeen.length).toBeGreaterThanOrEqual(3);
    const requests = logLines
      .map((l) => JSON.parse(l) as { req?: { url?: string }; res?: { statusCode?: number } })
      .filter((l) => l.req);
    expect(requests.some((l) => l.req?.url === '/api/auth/login' && l.res?.statusCode === 401)).toBe(true);
    expect(requests.some((l) => l.req?.url === '/api/auth/profile?token=[REDACTED]')).toBe(true);
    const all = logLines.join('\n');
    for (const secret of secretsSeen) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/Bearer /);
    expect(all).not.toMatch(/correct horse battery/);
  });
});
