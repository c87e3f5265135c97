/**
 * A table as the console lists it (issue #25): public facts only — who sits and watches, settings, status — and
 * never a card (the console opens a table through the ordinary spectator view, which holds no hand).
 */
import type { ConsoleTableItem, ConsoleTableStatus } from '@spades/common';
import { hostId, TableRecord } from '../games/table';

export function consoleItem(rec: TableRecord, node: string | null): ConsoleTableItem {
  return {
    id: rec.id,
    status: rec.status as ConsoleTableStatus,
    mode: rec.settings.gameMode,
    biddingOption: rec.settings.biddingOption,
    buyIn: rec.settings.buyIn,
    private: rec.private === true,
    rated: rec.rated,
    seats: rec.seats.map((s, seat) => ({
      seat,
      kind: s ? s.kind : 'empty',
      userId: s && s.kind === 'human' ? s.userId : null,
      username: s ? s.username : null,
      vacantUntil: s ? null : (rec.replacements[seat] ?? null),
    })),
    spectators: rec.spectators.map((s) => ({ userId: s.userId, username: s.username })),
    hostId: hostId(rec),
    handNumber: rec.engine.handNumber,
    gameNumber: rec.gameNumber,
    createdAt: new Date(rec.createdAt).toISOString(),
    closedAt: rec.status === 'CLOSED' && rec.finishedAt ? new Date(rec.finishedAt).toISOString() : null,
    closedReason: rec.status === 'CLOSED' ? (rec.closedReason ?? null) : null,
    settlement: rec.settlement,
    node,
  };
}
