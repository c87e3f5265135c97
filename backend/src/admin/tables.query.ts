/**
 * The console's table list (issue #25): query parsing and the filters (pure), and the recent (closed) tables read
 * from the `games` snapshots without their engine state or chat.
 */
import type { ConsoleTableItem, ConsoleTablesFilter, ConsoleTablesQuery, GameMode } from '@spades/common';
import { CONSOLE_TABLE_ERRORS, CONSOLE_TABLE_FILTERS, GAME_MODES, STAFF_REASON_MAX } from '@spades/common';
import { DataSource } from 'typeorm';
import type { TableRecord } from '../games/table';
import { UUID_RE } from '@spades/common';
import { consoleItem } from './tables.view';

export const CONSOLE_TABLES_MAX = 200;
const DEFAULT_LIMIT = 50;

/** The query string of GET /api/admin/tables; a bad filter is a message (400), never dropped silently. */
export function parseTablesQuery(raw: Record<string, unknown>): ConsoleTablesQuery | string {
  const str = (k: string) => (typeof raw[k] === 'string' && raw[k] !== '' ? (raw[k] as string) : undefined);
  const q: ConsoleTablesQuery = {};
  const status = str('status');
  if (status !== undefined) {
    if (!(CONSOLE_TABLE_FILTERS as readonly string[]).includes(status)) return CONSOLE_TABLE_ERRORS.BAD_FILTER;
    q.status = status as ConsoleTablesFilter;
  }
  const mode = str('mode');
  if (mode !== undefined) {
    const m = mode.toUpperCase();
    if (!(GAME_MODES as readonly string[]).includes(m)) return CONSOLE_TABLE_ERRORS.BAD_MODE;
    q.mode = m as GameMode;
  }
  const player = str('player')?.trim();
  if (player) q.player = player.slice(0, 100);
  const limit = str('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > CONSOLE_TABLES_MAX) return CONSOLE_TABLE_ERRORS.BAD_LIMIT;
    q.limit = n;
  }
  return q;
}

export function limitOf(q: ConsoleTablesQuery): number {
  return q.limit ?? DEFAULT_LIMIT;
}

/** Whether a user (id, or a part of the name, any case) sits or watches at the table. */
export function hasPlayer(t: ConsoleTableItem, player: string): boolean {
  if (UUID_RE.test(player))
    return t.seats.some((s) => s.userId === player) || t.spectators.some((s) => s.userId === player);
  const needle = player.toLowerCase();
  const names = [
    ...t.seats.filter((s) => s.kind === 'human').map((s) => s.username),
    ...t.spectators.map((s) => s.username),
  ];
  return names.some((n) => !!n && n.toLowerCase().includes(needle));
}

/** The filters of an open-table list; newest first. */
export function filterLive(items: ConsoleTableItem[], q: ConsoleTablesQuery): ConsoleTableItem[] {
  const status = q.status ?? 'live';
  return items
    .filter((t) => t.status !== 'CLOSED')
    .filter((t) => status !== 'waiting' || t.status === 'WAITING')
    .filter((t) => status !== 'playing' || t.status !== 'WAITING')
    .filter((t) => !q.mode || t.mode === q.mode)
    .filter((t) => !q.player || hasPlayer(t, q.player))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Closed tables, most recently closed first (the snapshot without its engine state and chat; one query). */
export async function recentTables(ds: DataSource, q: ConsoleTablesQuery, limit: number): Promise<ConsoleTableItem[]> {
  const where = [`status = 'CLOSED'`];
  const params: unknown[] = [];
  if (q.mode) where.push(`snapshot->'settings'->>'gameMode' = $${params.push(q.mode)}`);
  if (q.player && UUID_RE.test(q.player)) {
    const p = params.push(q.player);
    where.push(
      `(EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'seats') s WHERE s->>'userId' = $${p})
        OR EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'participants') s WHERE s->>'userId' = $${p})
        OR EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'spectators') s WHERE s->>'userId' = $${p}))`,
    );
  } else if (q.player) {
    const p = params.push(`%${q.player.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `(EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'seats') s WHERE s->>'kind' = 'human' AND s->>'username' ILIKE $${p})
        OR EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'participants') s WHERE s->>'username' ILIKE $${p})
        OR EXISTS (SELECT 1 FROM jsonb_array_elements(snapshot->'spectators') s WHERE s->>'username' ILIKE $${p}))`,
    );
  }
  const rows: { rec: TableRecord; hand: number | null }[] = await ds.query(
    `SELECT snapshot - 'engine' - 'chat' AS rec, (snapshot->'engine'->>'handNumber')::int AS hand
       FROM games WHERE ${where.join(' AND ')}
      ORDER BY finished_at DESC NULLS LAST, created_at DESC
      LIMIT ${Math.floor(limit)}`,
    params,
  );
  return rows.map((r) =>
    consoleItem({ ...r.rec, engine: { handNumber: r.hand ?? 0 } } as unknown as TableRecord, null),
  );
}

/** The reason every console action needs: 1–STAFF_REASON_MAX characters after trimming; else a message (400). */
export function parseReason(raw: unknown): string | { error: string } {
  const why = typeof raw === 'string' ? raw.trim() : '';
  if (why.length < 1 || why.length > STAFF_REASON_MAX) return { error: CONSOLE_TABLE_ERRORS.REASON_REQUIRED };
  return why;
}
