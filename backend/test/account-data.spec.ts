/* eslint-disable @typescript-eslint/no-explicit-any -- the test reads raw route bodies */
/**
 * Issue #26, a player's own data, with a real server, database and socket.io clients: four players finish a rated
 * game with table chat, lobby chat, friends, blocks, reports, a sanction and options. The export holds exactly the
 * player's own data (another player's chat line, relation or report never appears). Deleting the account: refused
 * while a table still includes the player, confirmed by the password (or the typed username without one); then no
 * route returns the old name or e-mail, the balance is closed into the house through the ledger (which still
 * balances), every session ends, and the name is held for ACCOUNT_NAME_HOLD_DAYS before it is free again.
 */
import type { AccountExport, DeletionInfo } from '@spades/common';
import { ACCOUNT_CLOSED_REASON, ACCOUNT_MESSAGES, isDeletedName } from '@spades/common';
import { TokenService } from '../src/auth/token.service';
import { Client, expectLedgerBalanced, gamesSuite, SETTINGS } from './games/helpers';
import { api, connectSocket, registerUser, TestApp } from './support/test-app';

describe('account data: export and deletion (integration)', () => {
  let t: TestApp;
  const { client, track } = gamesSuite((app) => (t = app), { ACCOUNT_NAME_HOLD_DAYS: '7', RESULT_MS: '300' });
  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);

  /** Four humans play a rated game to the end (chat at the table first); the table then closes. */
  async function playRated(ps: Client[], chat: [Client, string][]): Promise<string> {
    const created = await ps[0].http(t.url, 'POST', '/api/games', SETTINGS);
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) expect((await p.emit('join_game', { gameId })).ok).toBe(true);
    for (const [p, message] of chat) {
      p.socket.emit('chat_message', { gameId, message });
      await p.waitFor(
        () => p.events('chat_message').some((e) => e.message?.message === message),
        10000,
        'own chat line',
      );
    }
    for (const p of ps) p.auto = true;
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    const w = ps[0];
    await w.waitFor(() => w.events('game_over').some((e: any) => e.gameId === gameId), 90000, 'game_over');
    for (const p of ps) p.auto = false;
    await w.waitFor(() => w.events('game_closed').some((e: any) => e.gameId === gameId), 10000, 'game_closed');
    return gameId;
  }

  it('exports exactly the player’s own data; deletion anonymizes everywhere, closes the balance, ends sessions, holds the name', async () => {
    const [alice, bob, carol, dave] = [await client(), await client(), await client(), await client()];
    const oldName = alice.user.user.username;
    const oldEmail = alice.user.email;
    const [admin] = [await registerUser(t.url)];
    await q(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);

    // lobby chat of both, relations both ways, reports both ways, a sanction and options of alice
    for (const [c, message] of [
      [alice, 'alice says hello in the lobby'],
      [bob, 'bob lobby secret 7731'],
      [bob, `hi ${oldName}!`],
    ] as const) {
      c.socket.emit('lobby_chat_message', { message });
      await c.waitFor(
        () => c.events('lobby_chat_message').some((m: any) => m.message === message),
        10000,
        'lobby line',
      );
    }
    expect((await alice.http(t.url, 'POST', '/api/social/friends/add', { friendId: dave.id })).status).toBeLessThan(
      300,
    );
    expect((await bob.http(t.url, 'POST', '/api/social/block', { blockId: alice.id })).status).toBeLessThan(300);
    expect((await carol.http(t.url, 'PUT', `/api/mutes/${alice.id}`)).status).toBeLessThan(300);
    expect(
      (
        await alice.http(t.url, 'POST', '/api/reports', {
          userId: carol.id,
          category: 'spam',
          text: 'alice reports carol',
          context: { kind: 'profile' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await dave.http(t.url, 'POST', '/api/reports', {
          userId: alice.id,
          category: 'other',
          text: 'dave private complaint 5521',
          context: { kind: 'profile' },
        })
      ).status,
    ).toBe(201);
    await q(`INSERT INTO sanctions (user_id, kind, reason, created_by) VALUES ($1, 'warn', 'mind the language', $2)`, [
      alice.id,
      admin.user.id,
    ]);
    expect((await alice.http(t.url, 'PUT', '/api/users/me/options', { fourColourDeck: true })).status).toBe(200);

    const gameId = await playRated(
      [alice, bob, carol, dave],
      [
        [alice, 'alice table line'],
        [bob, 'bob private table line 9182'],
        [carol, `gg ${oldName.toUpperCase()}`],
      ],
    );

    // ---- the export: the player's own data, nobody else's
    const res = await alice.http(t.url, 'GET', '/api/users/me/data');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="spades-account-\d{4}-\d\d-\d\d\.json"$/,
    );
    const doc = res.body as AccountExport & { identities: unknown[] };
    expect(doc).toMatchObject({ format: 'spades-account-export', version: 1 });
    expect(doc.profile).toMatchObject({
      id: alice.id,
      username: oldName,
      email: oldEmail,
      hasPassword: true,
      discordLinked: false,
    });
    expect(doc.games.map((g: any) => [g.game_id, g.seat, g.rated])).toEqual([[gameId, 0, true]]);
    expect(doc.chat.lobby.map((m) => m.message)).toEqual(['alice says hello in the lobby']);
    expect(doc.chat.tables.map((m) => [m.gameId, m.message])).toEqual([[gameId, 'alice table line']]);
    const [{ balance }] = await q(`SELECT balance::text AS balance FROM coin_accounts WHERE user_id = $1`, [alice.id]);
    expect(doc.ledger.balance).toBe(Number(balance));
    expect(doc.profile.coins).toBe(Number(balance));
    expect(doc.ledger.entries.reduce((s, e) => s + e.amount, 0)).toBe(Number(balance));
    expect(doc.ledger.entries.map((e) => e.reason)).toEqual(expect.arrayContaining(['registration_grant']));
    expect(doc.ledger.entries.map((e) => e.reason)).toEqual(expect.arrayContaining(['registration_grant', 'buy_in']));
    expect(doc.ratings.current).toMatchObject({ rated_games: 1 });
    expect(doc.ratings.history).toHaveLength(1);
    expect(doc.relations).toEqual([
      { targetId: dave.id, targetName: dave.user.user.username, kind: 'friend', at: expect.any(String) },
    ]);
    expect(doc.mutes).toEqual([]);
    expect(doc.reportsFiled).toEqual([
      expect.objectContaining({ category: 'spam', text: 'alice reports carol', targetName: carol.user.user.username }),
    ]);
    expect(doc.sanctions).toEqual([expect.objectContaining({ kind: 'warn', reason: 'mind the language' })]);
    expect(JSON.stringify(doc.sanctions)).not.toContain(admin.user.id);
    expect(doc.options).toMatchObject({ options: expect.objectContaining({ fourColourDeck: true }) });
    const text = JSON.stringify(doc);
    for (const other of [
      'bob lobby secret 7731',
      'bob private table line 9182',
      'dave private complaint 5521',
      bob.user.email,
      carol.user.email,
    ])
      expect(text).not.toContain(other);
    // someone else's export does not hold alice's chat
    const bobDoc = (await bob.http(t.url, 'GET', '/api/users/me/data')).body as AccountExport;
    expect(JSON.stringify(bobDoc.chat)).not.toContain('alice');
    expect(bobDoc.relations).toEqual([expect.objectContaining({ targetId: alice.id, kind: 'block' })]);

    // ---- deletion: refused while a table still includes the player
    const table = (await alice.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await alice.emit('join_game', { gameId: table })).ok).toBe(true);
    const info = (await alice.http(t.url, 'GET', '/api/users/me/deletion')).body as DeletionInfo;
    expect(info).toMatchObject({ username: oldName, hasPassword: true, nameHoldDays: 7, openTables: [table] });
    expect(info.effects.join(' ')).toMatch(/reserved for 7 days/);
    const atTable = await alice.http(t.url, 'POST', '/api/users/me/deletion', { password: alice.user.password });
    expect(atTable).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.atTable } });
    expect((await alice.http(t.url, 'POST', `/api/games/${table}/leave`, {})).status).toBe(200);
    await alice.waitFor(() => alice.events('game_closed').some((e: any) => e.gameId === table), 10000, 'table closed');
    expect((await alice.http(t.url, 'GET', '/api/users/me/deletion')).body.openTables).toEqual([]);

    // unconfirmed: nothing changes
    expect(await alice.http(t.url, 'POST', '/api/users/me/deletion', {})).toMatchObject({
      status: 400,
      body: { message: ACCOUNT_MESSAGES.passwordRequired },
    });
    expect(await alice.http(t.url, 'POST', '/api/users/me/deletion', { password: 'not it at all' })).toMatchObject({
      status: 403,
      body: { message: ACCOUNT_MESSAGES.wrongPassword },
    });
    expect((await q(`SELECT username FROM users WHERE id = $1`, [alice.id]))[0].username).toBe(oldName);

    // before: the name is stored in the table's snapshots and event rows (seats, chat, system lines) and records
    const copies = `SELECT count(*)::int AS n FROM games g JOIN game_events e ON e.game_id = g.id
        WHERE strpos(lower(g.snapshot::text || coalesce(e.delta::text, '') || coalesce(e.payload::text, '')), $1) > 0`;
    expect((await q(copies, [oldName.toLowerCase()]))[0].n).toBeGreaterThan(0);

    const expired = new Promise<any>((resolve) => (alice.socket as any).once('session_expired', resolve));
    const del = await alice.http(t.url, 'POST', '/api/users/me/deletion', { password: alice.user.password });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ ok: true, coinsClosed: Number(balance) });
    expect(new Date(del.body.nameFreeAt).getTime() - new Date(del.body.deletedAt).getTime()).toBe(7 * 86_400_000);
    expect(await expired).toEqual({ message: 'Your account was deleted' });

    // sessions and sign-in are gone
    expect((await alice.http(t.url, 'GET', '/api/auth/profile')).status).toBe(401);
    expect(
      (await api(t.url, 'POST', '/api/auth/login', { body: { email: oldEmail, password: alice.user.password } }))
        .status,
    ).toBe(401);

    // the ledger: the whole balance went to the house in one balanced transfer
    const closing = await q(
      `SELECT a.kind, e.amount::text AS amount FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
        WHERE e.reason = $1 ORDER BY e.amount`,
      [ACCOUNT_CLOSED_REASON],
    );
    expect(closing).toEqual([
      { kind: 'user', amount: `-${balance}` },
      { kind: 'house', amount: balance },
    ]);
    expect((await q(`SELECT balance::text AS b FROM coin_accounts WHERE user_id = $1`, [alice.id]))[0].b).toBe('0');
    await expectLedgerBalanced((sql) => q(sql));

    // ---- no route returns the old name or e-mail; the neutral name shows instead
    const [row] = await q(`SELECT username, email, deleted_at FROM users WHERE id = $1`, [alice.id]);
    const neutral: string = row.username;
    expect(isDeletedName(neutral)).toBe(true);
    expect(row.email).toBeNull();
    const lower = oldName.toLowerCase();
    const asBob = [
      '/api/users',
      '/api/leaderboard',
      '/api/leaderboard?mode=PARTNERS',
      `/api/ratings?ids=${alice.id},${bob.id}`,
      `/api/ratings/${alice.id}/history`,
      `/api/ratings/games/${gameId}/1`,
      `/api/users/${alice.id}/games`,
      `/api/users/${bob.id}/games`,
      `/api/users/${alice.id}/stats`,
      `/api/games/${gameId}/replay`,
      `/api/games/${gameId}`,
      '/api/games',
    ];
    const asAdmin = [
      '/api/admin/players',
      `/api/admin/players?q=${encodeURIComponent(oldName)}`,
      `/api/admin/players/${alice.id}`,
      '/api/admin/audit',
      '/api/admin/reports',
    ];
    const bodies: string[] = [];
    for (const [token, paths] of [
      [bob.user.token, asBob],
      [admin.token, asAdmin],
    ] as const)
      for (const path of paths) {
        const r = await api(t.url, 'GET', path, { token });
        expect([path, r.status < 500]).toEqual([path, true]);
        const s = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
        expect([path, s.toLowerCase().includes(lower)]).toEqual([path, false]);
        expect([path, s.includes(oldEmail)]).toEqual([path, false]);
        bodies.push(s);
      }
    const players = (await bob.http(t.url, 'GET', '/api/users')).body as { id: string }[];
    expect(players.map((p) => p.id)).toEqual(expect.arrayContaining([bob.id, carol.id]));
    expect(players.map((p) => p.id)).not.toContain(alice.id);
    const replay = (await bob.http(t.url, 'GET', `/api/games/${gameId}/replay`)).body;
    expect(replay.players[0]).toMatchObject({ userId: alice.id, username: neutral });
    expect(bodies.join('\n')).toContain(neutral);
    const [report] = (await q(`SELECT context::text AS c FROM reports WHERE target_id = $1`, [alice.id])) as {
      c: string;
    }[];
    expect(report.c.toLowerCase()).not.toContain(lower);
    // stored copies: every table snapshot, event row and game record
    expect((await q(copies, [lower]))[0].n).toBe(0);
    expect(
      (
        await q(
          `SELECT count(*)::int AS n FROM game_records WHERE strpos(lower(players::text || participants::text), $1) > 0`,
          [lower],
        )
      )[0].n,
    ).toBe(0);
    expect(
      (await q(`SELECT count(*)::int AS n FROM lobby_chat_messages WHERE lower(username) = $1`, [lower]))[0].n,
    ).toBe(0);
    // the lobby chat history a new connection replays
    const seen: any[] = [];
    const s = await connectSocket(t.url, bob.user.token, {
      setup: (sock) => (sock as any).on('lobby_chat_message', (m: any) => seen.push(m)),
    });
    await bob.waitFor(
      () => seen.flat().some((m: any) => m.message === 'alice says hello in the lobby'),
      10000,
      'history',
    );
    expect(seen.flat().find((m: any) => m.message === 'alice says hello in the lobby')).toMatchObject({
      username: neutral,
    });
    expect(seen.flat().map((m: any) => m.message)).toContain(`hi ${neutral}!`);
    expect(JSON.stringify(seen).toLowerCase()).not.toContain(lower);
    s.close();
    // relations and mutes are gone both ways; the audit log has the deletion
    expect(await q(`SELECT * FROM user_relations WHERE $1 IN (user_id, target_id)`, [alice.id])).toEqual([]);
    expect(await q(`SELECT * FROM player_mutes WHERE $1 IN (user_id, target_id)`, [alice.id])).toEqual([]);
    expect(await q(`SELECT action, actor_id FROM audit_log WHERE target_user_id = $1`, [alice.id])).toEqual([
      { action: 'account.delete', actor_id: alice.id },
    ]);

    // ---- the name is held, then free
    const again = await api(t.url, 'POST', '/api/auth/register', {
      body: { username: oldName, email: 'someone.else@example.test', password: 'correct horse battery' },
    });
    expect(again.status).toBe(409);
    expect(JSON.stringify(await q(`SELECT * FROM held_usernames`)).toLowerCase()).not.toContain(lower);
    await q(`UPDATE held_usernames SET free_at = now() - interval '1 second'`);
    const later = await registerUser(t.url, { username: oldName, email: 'someone.else@example.test' });
    expect(later.user.username).toBe(oldName);
    expect(later.user.id).not.toBe(alice.id);
  });

  it('an account without a password confirms with its username typed exactly', async () => {
    const [u] = await q(
      `INSERT INTO users (username, username_key, email, password_hash, discord_id) VALUES ('Disco_only', 'disco_only', NULL, NULL, '123456789') RETURNING id`,
    );
    const token = t.app.get(TokenService).sign(u.id);
    const info = await api(t.url, 'GET', '/api/users/me/deletion', { token });
    expect(info.body).toMatchObject({ username: 'Disco_only', hasPassword: false, openTables: [] });
    for (const confirm of [undefined, 'disco_only', 'Disco'])
      expect(await api(t.url, 'POST', '/api/users/me/deletion', { token, body: { confirm } })).toMatchObject({
        status: 400,
        body: { message: ACCOUNT_MESSAGES.confirmRequired },
      });
    const ok = await api(t.url, 'POST', '/api/users/me/deletion', { token, body: { confirm: 'Disco_only' } });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, coinsClosed: 0 } });
    expect(await q(`SELECT discord_id, password_hash, email FROM users WHERE id = $1`, [u.id])).toEqual([
      { discord_id: null, password_hash: null, email: null },
    ]);
    expect((await api(t.url, 'GET', '/api/users/me/data', { token })).status).toBe(401);
    track();
  });
});
