import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../src/config/config.schema';
import { openDataSource } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { api, connectSocket, createTestApp, registerUser } from './support/test-app';

describe('embedded database (PGlite) persistence and data-dir lock', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'spades-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('restarts on the same data dir and keeps accounts, coins, relations, chat and the JWT secret', async () => {
    // (a new data directory is initialised by a child process: allow for a slow machine)
    const first = await createTestApp({ embedded: true, dataDir });
    const a = await registerUser(first.url);
    const b = await registerUser(first.url);
    await api(first.url, 'POST', '/api/social/friends/add', { token: a.token, body: { friendId: b.user.id } });
    const s = await connectSocket(first.url, a.token);
    const echoed = new Promise((r) => s.once('lobby_chat_message', r));
    s.emit('lobby_chat_message', 'persist me');
    await echoed;
    s.close();
    const secretFile = join(dataDir, 'jwt-secret');
    expect(existsSync(secretFile)).toBe(true);
    const secret = readFileSync(secretFile, 'utf8');
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(true);

    // a second server on the same data dir is refused while the first runs
    await expect(createTestApp({ embedded: true, dataDir })).rejects.toThrow(/already in use by another Spades server/);
    await first.close();
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);

    const second = await createTestApp({ embedded: true, dataDir });
    try {
      // the old token still works: same persisted secret
      const profile = await api<{ id: string; coins: number }>(second.url, 'GET', '/api/auth/profile', {
        token: a.token,
      });
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ id: a.user.id, coins: 5_000_000 });
      expect(readFileSync(secretFile, 'utf8')).toBe(secret);
      const login = await api(second.url, 'POST', '/api/auth/login', {
        body: { email: b.email, password: b.password },
      });
      expect(login.status).toBe(200);
      const users = await api<{ id: string; status: string }[]>(second.url, 'GET', '/api/users', { token: a.token });
      expect(users.body.find((u) => u.id === b.user.id)?.status).toBe('friend');
      const history: string[] = [];
      const s2 = await connectSocket(second.url, b.token, {
        setup: (x) => x.on('lobby_chat_message', (m) => history.push(m.message)),
      });
      await new Promise((r) => setTimeout(r, 300));
      s2.close();
      expect(history).toContain('persist me');
      const migrations = await second.dataSource.query(`SELECT count(*)::int AS n FROM migrations`);
      expect(migrations[0].n).toBe(MIGRATIONS.length); // each applied once, not re-applied
    } finally {
      await second.close();
    }
  }, 180_000);

  it('a stale lock file (dead pid) does not block start-up; the migrate entry point works on the same dir', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dataDir, 'pgdata.lock'), '999999');
    const config = loadAppConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const ds = await openDataSource(config);
    try {
      const rows = await ds.query(`SELECT name FROM migrations`);
      expect(rows.map((r: { name: string }) => r.name)).toEqual(MIGRATIONS.map((M) => new M().name));
      expect(Number((await ds.query(`SELECT count(*)::int AS n FROM users`))[0].n)).toBe(2);
    } finally {
      await ds.destroy();
    }
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
  });
});
