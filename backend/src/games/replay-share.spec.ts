import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { loadAppConfig } from '../config/config.schema';
import type { HistoryService } from './history';
import { ReplayShares } from './replay-share';
import type { TableAccess } from './table.access';

const GAME = '22222222-2222-4222-8222-222222222222';
const SHARE = '11111111-1111-4111-8111-111111111111';

/** ReplayShares over stand-ins: a finished game 3 played by `u1`, and an INSERT that returns its row. */
function shares(env: Record<string, string>): ReplayShares {
  const ds = {
    query: async () => [
      { id: SHARE, game_id: GAME, game_number: 3, created_by: 'u1', created_at: new Date(0), revoked_at: null },
    ],
  } as unknown as DataSource;
  const history = { finishedGame: async () => ({ gameNumber: 3, private: true }) } as unknown as HistoryService;
  const access = { players: async () => new Set(['u1']) } as unknown as TableAccess;
  return new ReplayShares(ds, history, access, loadAppConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40), ...env }));
}
const dir = mkdtempSync(join(tmpdir(), 'spades-share-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay share links: the route, and the address only when the host configured it (issue #31)', () => {
  it('CLIENT_URL not set: the route to put after the address in use, configured false', async () => {
    const s = shares({});
    const link = await s.create('u1', GAME, undefined);
    const token = s.tokenOf(SHARE);
    expect(link).toEqual({
      id: SHARE,
      gameId: GAME,
      gameNumber: 3,
      createdAt: new Date(0).toISOString(),
      token,
      path: `/replay/${GAME}?game=3&share=${encodeURIComponent(token)}`,
      // kept for older clients: the default address
      url: `http://localhost:3000/replay/${GAME}?game=3&share=${encodeURIComponent(token)}`,
      configured: false,
    });
  });

  it('CLIENT_URL set: url is the configured address + the route', async () => {
    const [link] = await shares({ CLIENT_URL: 'https://spades.example.org/play/' }).mine('u1', GAME, '3');
    expect(link.configured).toBe(true);
    expect(link.url).toBe(`https://spades.example.org/play${link.path}`);
  });
});
