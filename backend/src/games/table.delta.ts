/**
 * Lean persistence, the pure part: what one command changed in a table record, as stored in its event row,
 * and how a restore rebuilds the record from the last snapshot plus those rows.
 *
 * - The rules-engine state is never stored per event: the row's `actions` (deal seeds, bids, cards — every
 *   engine action the command applied) are replayed through common's `apply`.
 * - Chat is append-only (capped): the row carries the new messages.
 * - Every other field of the record is small (seats, timers, acknowledgements…): the row carries the
 *   top-level fields whose value changed, whole.
 *
 * `restoreRecord(snapshot, rows)` therefore equals the live record (property-tested in table.delta.spec.ts).
 */
import { apply, createGame } from '@spades/common';
import type { AppliedAction, ChatMessage, TableRecord } from './table.record';

/** The non-engine, non-chat part of a command's change. */
export interface TableDelta {
  /** Top-level fields of the record whose value changed (whole values). */
  fields?: Partial<TableRecord>;
  /** Chat messages posted by the command, in order. */
  chat?: ChatMessage[];
}

/** Fields never carried in `fields`: the engine (replayed from actions) and chat (appended). */
const SPECIAL = new Set<keyof TableRecord>(['engine', 'chat']);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  // a draft's arrays are copies of the record's (draftOf): the same elements mean the same value
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The delta from `prev` to `next` (both whole records; `next` is the command's draft). */
export function tableDelta(prev: TableRecord, next: TableRecord): TableDelta {
  const out: TableDelta = {};
  const fields: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]) as Set<keyof TableRecord>;
  for (const k of keys) {
    if (SPECIAL.has(k)) continue;
    // `null` stands for a field that disappeared (no field of the record is ever deleted today)
    if (!same(prev[k], next[k])) fields[k] = next[k] === undefined ? null : next[k];
  }
  if (Object.keys(fields).length) out.fields = fields as Partial<TableRecord>;
  const lastId = prev.chat.length ? prev.chat[prev.chat.length - 1].id : null;
  const from = lastId === null ? 0 : next.chat.findIndex((m) => m.id === lastId) + 1;
  // the previous last message was trimmed away (cannot happen with one command posting fewer than the cap)
  const added = from === 0 && lastId !== null ? next.chat : next.chat.slice(from);
  if (added.length) out.chat = added;
  return out;
}

/** Applies one stored event (its engine actions, then its delta) to `rec` in place. */
export function applyEvent(
  rec: TableRecord,
  actions: readonly AppliedAction[] | null,
  delta: TableDelta | null,
  chatCap: number,
): void {
  let game = rec.gameNumber;
  for (const a of actions ?? []) {
    if (a.gameNumber !== game) {
      // Play Again: a new game starts from a fresh engine state
      rec.engine = createGame(rec.settings);
      game = a.gameNumber;
    }
    const r = apply(rec.engine, a.action);
    if (!r.ok) throw new Error(`replay of table ${rec.id}: ${a.action.type} refused (${r.error})`);
    rec.engine = r.state;
  }
  const fields = delta?.fields;
  if (fields) {
    if (fields.gameNumber !== undefined && fields.gameNumber !== game) rec.engine = createGame(rec.settings);
    Object.assign(rec, fields);
  }
  if (delta?.chat?.length) {
    rec.chat.push(...delta.chat);
    if (rec.chat.length > chatCap) rec.chat.splice(0, rec.chat.length - chatCap);
  }
}

/** The record after `rows` (in seq order) on top of `snapshot` (not modified). */
export function restoreRecord(
  snapshot: TableRecord,
  rows: readonly { actions: AppliedAction[] | null; delta: TableDelta | null }[],
  chatCap: number,
): TableRecord {
  const rec = structuredClone(snapshot);
  for (const r of rows) applyEvent(rec, r.actions, r.delta, chatCap);
  return rec;
}

/** Events between two full snapshots at most (a snapshot is also written at every hand/status boundary). */
export const SNAPSHOT_EVERY = 64;

/**
 * Whether a command's result is stored as a full snapshot: at every boundary a restore or a reader of the
 * `games` row cares about (status, hand, game, settlement, a rated start), and at least every SNAPSHOT_EVERY
 * events so a restore replays a bounded tail.
 */
export function needsSnapshot(
  prev: TableRecord,
  next: TableRecord,
  eventsSinceSnapshot: number,
  escrow: boolean,
): boolean {
  return (
    escrow ||
    prev.status !== next.status ||
    prev.engine.handNumber !== next.engine.handNumber ||
    prev.gameNumber !== next.gameNumber ||
    prev.settlement !== next.settlement ||
    eventsSinceSnapshot + 1 >= SNAPSHOT_EVERY
  );
}
