/**
 * Making and copying table records (pure, no rules): a new table, a new bot occupant, the draft a command changes,
 * and the deep freeze tests put on committed records. Split from table.ts (issue #29).
 */
import { createGame, type GameSettings } from '@spades/common';
import { randomBytes } from 'node:crypto';
import { newInviteToken, type Participant, type SeatOccupant, type TableRecord } from './table.record';

export function newTable(
  id: string,
  settings: GameSettings,
  /** null: a table without a host (issue #27: a tournament table, its seats filled by the tournament). */
  creator: Participant | null,
  now: number,
  opts: { private?: boolean } = {},
): TableRecord {
  return {
    id,
    createdAt: now,
    status: 'WAITING',
    settings,
    seats: [creator ? { ...creator, kind: 'human' } : null, null, null, null],
    spectators: [],
    rated: false,
    participants: [],
    gameNumber: 1,
    engine: createGame(settings),
    flow: null,
    replacements: [null, null, null, null],
    timeouts: [0, 0, 0, 0],
    announced: [],
    departed: [],
    chat: [],
    handAcks: [],
    playAgain: [],
    trickPending: false,
    settlement: 'none',
    payouts: null,
    closedReason: null,
    finishedAt: null,
    private: opts.private === true,
    inviteToken: opts.private === true ? newInviteToken() : null,
    invitations: [],
    admitted: opts.private === true && creator ? [creator.userId] : [],
  };
}

/**
 * A draft of a record for a command to change, copied only as deep as a command writes: the record itself and its
 * arrays (a command pushes to `chat`, sets `seats[i]`, `timeouts[i]`…). Everything below is shared with the committed
 * record and never changed in place — a command replaces a seat occupant, a chat message, an invitation, `flow` or
 * `settings` whole, and the rules-engine state is immutable (common's `apply` returns a new state; the engine holds
 * the hands and the history, most of a record's size). Under tests every committed record is frozen
 * (`freezeCommitted`), so a command that breaks this rule fails there instead of changing a committed table.
 */
export function draftOf(rec: TableRecord): TableRecord {
  const draft = { ...rec } as Record<string, unknown>;
  for (const k in draft) {
    const v = draft[k];
    if (Array.isArray(v)) draft[k] = v.slice();
  }
  return draft as unknown as TableRecord;
}

const FREEZE_COMMITTED = process.env.NODE_ENV === 'test';

/** Tests only (NODE_ENV=test): freezes a committed record deeply, engine aside (common returns new states). */
export function freezeCommitted(rec: TableRecord): void {
  if (!FREEZE_COMMITTED) return;
  const deep = (v: unknown): void => {
    if (!v || typeof v !== 'object' || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const x of Object.values(v)) deep(x);
  };
  for (const [k, v] of Object.entries(rec)) if (k !== 'engine') deep(v);
  Object.freeze(rec);
}

export function newBot(seat: number): SeatOccupant {
  return {
    kind: 'bot',
    userId: `bot_${seat}_${randomBytes(4).toString('hex')}`,
    username: `Bot ${seat + 1}`,
    avatar: null,
  };
}
