/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw rows and payloads */
/**
 * Backup and restore (issue #26), for each database: a server with a finished rated game, chat, ratings and a live
 * table is backed up WHILE IT RUNS (`npm run backup`'s main function, in-process; on the embedded database it asks
 * the running server, which holds the database), restored into a fresh database, and a second server booted on the
 * restored one serves the same balances, ratings, history, replay and live table; the ledger balances. A corrupted
 * or newer-schema file is refused with a clear message and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { runBackupCli } from '../src/backup/backup.cli';
import { BackupWriter, readBackup } from '../src/backup/backup.format';
import { api, createTestApp, TestApp } from './support/test-app';
import { Client, expectLedgerBalanced, SETTINGS, useFastTimers } from './games/helpers';

const pgUrl = process.env.TEST_DATABASE_URL;

async function cli(env: Record<string, string | undefined>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBackupCli(
    argv,
    { LOG_LEVEL: 'silent', ...env },
    { log: (l) => out.push(l), error: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** What must survive a backup and restore, read straight from the database. */
async function facts(q: (sql: string) => Promise<any[]>) {
  return {
    balances: await q(`SELECT key, balance::text FROM coin_accounts ORDER BY key`),
    entries: (await q(`SELECT count(*)::int AS n FROM coin_entries`))[0].n,
    ratings: await q(`SELECT user_id, mu, sigma, rated_games FROM user_ratings ORDER BY user_id`),
    history: await q(`SELECT * FROM rating_history ORDER BY game_key, seat`),
    records: await q(`SELECT * FROM game_records ORDER BY game_id, game_number`),
    chat: await q(`SELECT user_id, message FROM lobby_chat_messages ORDER BY created_at, id`),
    tables: await q(`SELECT id, seq, snapshot FROM games ORDER BY id`),
  };
}

// the embedded database always; PostgreSQL where TEST_DATABASE_URL names one (CI)
const KINDS = pgUrl ? (['PostgreSQL', 'embedded'] as const) : (['embedded'] as const);
for (const kind of KINDS) {
  const embedded = kind === 'embedded';
  describe(`backup and restore (${kind})`, () => {
    let a: TestApp;
    let b: TestApp | undefined;
    const work = mkdtempSync(join(tmpdir(), 'spades-backup-'));
    const restoredDir = mkdtempSync(join(tmpdir(), 'spades-restored-'));
    const restoredSchema = `restored_${process.pid}_${randomBytes(4).toString('hex')}`;
    const clients: Client[] = [];
    let ratedGame = '';
    let liveTable = '';
    let dbEnv: Record<string, string | undefined>;
    let restoredEnv: Record<string, string | undefined>;

    beforeAll(async () => {
      useFastTimers();
      const t0 = Date.now();
      const step = (what: string) =>
        process.env.BACKUP_TEST_TRACE && console.log(`${kind} ${what} +${Date.now() - t0} ms`);
      a = await createTestApp({ embedded });
      step('app');
      dbEnv = embedded
        ? { DATA_DIR: a.dataDir, PORT: new URL(a.url).port, DATABASE_URL: undefined }
        : { DATABASE_URL: pgUrl, DATABASE_SCHEMA: a.config.databaseSchema, DATA_DIR: a.dataDir };
      restoredEnv = embedded
        ? { DATA_DIR: restoredDir, DATABASE_URL: undefined }
        : { DATABASE_URL: pgUrl, DATABASE_SCHEMA: restoredSchema, DATA_DIR: restoredDir };

      // a finished rated game: four humans play it to the end
      const ps: Client[] = [];
      for (let i = 0; i < 4; i++) ps.push(await Client.create(a.url));
      clients.push(...ps);
      const created = await ps[0].http(a.url, 'POST', '/api/games', SETTINGS);
      ratedGame = created.body.id;
      for (let i = 1; i < 4; i++) await ps[i].http(a.url, 'POST', `/api/games/${ratedGame}/join`, { seat: i });
      for (const p of ps) await p.emit('join_game', { gameId: ratedGame });
      for (const p of ps) p.auto = true;
      expect((await ps[0].emit('start_game', { gameId: ratedGame })).ok).toBe(true);
      await ps[0].waitFor(() => ps[0].view?.id === ratedGame && ps[0].view?.payouts != null, 90000, 'settlement');
      for (const p of ps) p.auto = false;
      await ps[0].waitFor(
        () => ps[0].events('game_closed').some((e: any) => e.gameId === ratedGame),
        10000,
        'game_closed',
      );
      step('rated game');
      // chat
      (ps[1].socket as any).emit('lobby_chat_message', { message: 'good game, see you tomorrow' });
      await ps[1].waitFor(
        () => ps[1].events('lobby_chat_message').some((m: any) => m.message === 'good game, see you tomorrow'),
        10000,
        'chat echo',
      );
      // a live table: one human and three bots, started, waiting for the human
      const host = await Client.create(a.url);
      clients.push(host);
      const t2 = await host.http(a.url, 'POST', '/api/games', SETTINGS);
      expect(t2.status).toBe(201);
      liveTable = t2.body.id;
      for (const seat of [1, 2, 3])
        expect((await host.http(a.url, 'POST', `/api/games/${liveTable}/invite-bot`, { seatIndex: seat })).status).toBe(
          200,
        );
      await host.emit('join_game', { gameId: liveTable });
      expect((await host.emit('start_game', { gameId: liveTable })).ok).toBe(true);
      await host.waitFor(
        () => host.view?.id === liveTable && host.view?.currentPlayerIndex === host.view?.mySeat,
        20000,
        'the human to act',
      );
      step('live table');
    }, 180000);

    afterAll(async () => {
      for (const c of clients) c.close();
      await b?.close();
      await a?.close();
      if (!embedded) {
        const ds = await new DataSource({ type: 'postgres', url: pgUrl, poolSize: 1 }).initialize();
        await ds.query(`DROP SCHEMA IF EXISTS "${restoredSchema}" CASCADE`);
        await ds.destroy();
      }
      rmSync(work, { recursive: true, force: true });
      rmSync(restoredDir, { recursive: true, force: true });
    });

    it('GET /api/admin/backup: admins only (or the control header); the download is a whole backup', async () => {
      const player = clients[1].user;
      expect((await api(a.url, 'GET', '/api/admin/backup')).status).toBe(401);
      expect(
        (await api(a.url, 'GET', '/api/admin/backup', { headers: { 'x-spades-backup-control': 'guess' } })).status,
      ).toBe(401);
      expect((await api(a.url, 'GET', '/api/admin/backup', { token: player.token })).status).toBe(403);
      await a.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [player.user.id]);
      expect((await api(a.url, 'GET', '/api/admin/backup', { token: player.token })).status).toBe(403);
      await a.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [player.user.id]);
      const res = await fetch(`${a.url}/api/admin/backup`, { headers: { authorization: `Bearer ${player.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="spades-backup-.*\.gz"/);
      const file = join(work, 'downloaded.gz');
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const manifest = await readBackup(file);
      expect(manifest.counts.accounts).toBe(5);
      // the audit row is written once the stream has ended, which can be just after the client has read it all
      const auditRows = () =>
        a.dataSource.query(`SELECT actor_id, action FROM audit_log WHERE action = 'server.backup'`);
      for (let t0 = Date.now(); (await auditRows()).length === 0 && Date.now() - t0 < 10_000;)
        await new Promise((r) => setTimeout(r, 50));
      expect(await auditRows()).toEqual([{ actor_id: player.user.id, action: 'server.backup' }]);
      await a.dataSource.query(`UPDATE users SET role = 'user' WHERE id = $1`, [player.user.id]);
    });

    it('backs up the running server and restores everything into a fresh database', async () => {
      const file = join(work, 'server.backup.gz');
      const hostView = (await api(a.url, 'GET', `/api/games/${liveTable}`, { token: clients[4].user.token })).body;
      const before = await facts((sql) => a.dataSource.query(sql));
      const replayBefore = (await api(a.url, 'GET', `/api/games/${ratedGame}/replay`, { token: clients[0].user.token }))
        .body;

      const made = await cli(dbEnv, 'backup', '--out', file);
      expect(made.err).toBe('');
      expect(made.code).toBe(0);
      expect(made.out).toMatch(
        /Backup written to .*: schema \w+\d{13}, taken .*: \d+ accounts, 2 games, \d+ ledger entries/,
      );
      if (embedded) expect(made.out).toContain('asking it for the backup');

      const restored = await cli(restoredEnv, 'restore', file);
      expect(restored.err).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.out).toContain("The backup was already at this server's schema.");
      expect(restored.out).toMatch(/users\s+5/);

      await a.close(); // the restored server takes over (and the embedded one gets its own directory)
      b = await createTestApp({
        embedded,
        dataDir: restoredDir,
        env: embedded ? {} : { DATABASE_SCHEMA: restoredSchema },
      });
      const after = await facts((sql) => b!.dataSource.query(sql));
      expect(after).toEqual(before);
      await expectLedgerBalanced((sql) => b!.dataSource.query(sql));
      // accounts sign in with their passwords (sessions are signed with the new DATA_DIR's secret: sign in again)
      const signIn = async (c: Client) =>
        (await api(b!.url, 'POST', '/api/auth/login', { body: { email: c.user.email, password: c.user.password } }))
          .body.token as string;
      const [player0, host] = [await signIn(clients[0]), await signIn(clients[4])];
      const replayAfter = await api(b.url, 'GET', `/api/games/${ratedGame}/replay`, { token: player0 });
      expect([replayAfter.status, replayAfter.body]).toEqual([200, replayBefore]);
      const viewAfter = (await api(b.url, 'GET', `/api/games/${liveTable}`, { token: host })).body;
      // the same table, hand and turn; only the clocks differ (a restored table re-arms the turn timer, as on restart)
      const clockless = ({ serverTime: _s, turnExpiresAt: _t, ...rest }: any) => rest;
      expect(clockless(viewAfter)).toEqual(clockless(hostView));
      expect(viewAfter.hands[viewAfter.mySeat]).toHaveLength(13);
      const ratings = (
        await api(
          b.url,
          'GET',
          `/api/ratings?ids=${clients
            .slice(0, 4)
            .map((c) => c.id)
            .join(',')}`,
          { token: player0 },
        )
      ).body;
      expect(ratings.ratings.map((r: any) => r.ratedGames)).toEqual([1, 1, 1, 1]);
      // ids keep counting after the restored ones: a new audit entry does not collide
      await b.dataSource.query(`INSERT INTO audit_log (actor_id, action) VALUES (NULL, 'server.backup')`);
    }, 120000);

    it('refuses a damaged, a cut-short and a newer-schema file, changing nothing', async () => {
      const good = join(work, 'server.backup.gz');
      const target = embedded
        ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'spades-refused-')), DATABASE_URL: undefined }
        : {
            DATABASE_URL: pgUrl,
            DATABASE_SCHEMA: `refused_${process.pid}_${randomBytes(3).toString('hex')}`,
            DATA_DIR: work,
          };

      const text = gunzipSync(readFileSync(good)).toString('utf8');
      const damaged = join(work, 'damaged.gz');
      writeFileSync(damaged, gzipSync(text.replace('good game, see you tomorrow', 'good game, see you Tomorrow')));
      const cut = join(work, 'cut.gz');
      writeFileSync(cut, gzipSync(text.slice(0, text.lastIndexOf('{"manifest"'))));
      const newer = join(work, 'newer.gz');
      const w = new BackupWriter(newer);
      await w.line(JSON.stringify({ format: 'spades-backup', version: 1 }));
      await w.finish({
        format: 'spades-backup',
        version: 1,
        schemaVersion: 'FromTheFuture9999999999999',
        schemaTimestamp: 9999999999999,
        createdAt: new Date().toISOString(),
        tables: {},
        counts: { accounts: 0, games: 0, ledgerEntries: 0 },
      });
      const notGzip = join(work, 'plain.txt');
      writeFileSync(notGzip, 'hello');

      const expectations: [string, RegExp][] = [
        [damaged, /damaged: its checksum does not match/],
        [cut, /incomplete \(no manifest/],
        [newer, /made by a newer server .*Upgrade this server first/],
        [notGzip, /damaged or not a backup/],
      ];
      for (const [file, message] of expectations) {
        const r = await cli(target, 'restore', file);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(message);
      }
      // nothing was created in the target
      const ds = embedded ? null : await new DataSource({ type: 'postgres', url: pgUrl, poolSize: 1 }).initialize();
      if (ds) {
        const [{ n }] = await ds.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`,
          [target.DATABASE_SCHEMA],
        );
        expect(n).toBe(0);
        await ds.query(`DROP SCHEMA IF EXISTS "${target.DATABASE_SCHEMA}" CASCADE`);
        await ds.destroy();
      }
      // a database that holds data is refused (without --replace; the embedded one is held by its server), as it was
      const again = await cli(restoredEnv, 'restore', good);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(embedded ? /in use by a running server/ : /already holds \d+ tables/);
      expect((await b!.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n).toBe(5);
      if (embedded) rmSync(target.DATA_DIR!, { recursive: true, force: true });
    }, 60000);
  });
}
