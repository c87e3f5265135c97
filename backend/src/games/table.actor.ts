/**
 * One open table at runtime: its record, the promise queue that serialises its commands, its timer, the
 * results of client actions (idempotent retries), and the persistence counters (seq, events since the last
 * snapshot). The registry maps table ids to actors and seated users to their table.
 */
import type { GameAction } from '@spades/common';
import { isHuman, type TableRecord } from './table.record';
import { freezeCommitted } from './table.new';

/** A client action already done: what it was (type + canonical payload) and what it answered. */
export interface DoneAction {
  type: string;
  payload: string;
  result: unknown;
}

export interface TableActor {
  rec: TableRecord;
  queue: Promise<unknown>;
  timer: NodeJS.Timeout | null;
  /** Client actions by `${userId}:${actionId}` (idempotency). */
  results: Map<string, DoneAction>;
  /** Seq of the last stored event. */
  seq: number;
  /** Events stored since the last full snapshot. */
  eventsSinceSnapshot: number;
  /** The ownership epoch this node holds the table at (issue #13); null on a single node (no fencing). */
  epoch: number | null;
  /** Set once the table left this node (handed over, taken over): queued commands go to the new owner. */
  gone: boolean;
  /** A bot decision started when the bot's think delay began, for the flow timer with this key. */
  botPlan: { key: string; plan: Promise<GameAction[]>; abort: AbortController } | null;
}

/**
 * Remembers a client action's result for idempotent retries: the latest `kept` per table (a restart restores about
 * as many from the event log), so a long-lived table does not grow without bound.
 */
export function rememberResult(actor: TableActor, key: string, done: DoneAction, kept: number): void {
  actor.results.delete(key);
  actor.results.set(key, done);
  while (actor.results.size > kept) actor.results.delete(actor.results.keys().next().value as string);
}

/** JSON with sorted keys (jsonb does not keep key order): compares a retry's payload with the stored one. */
export function canonicalJson(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .filter((k) => o[k] !== undefined)
          .sort()
          .map((k) => [k, norm(o[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(value === undefined ? null : JSON.parse(JSON.stringify(value ?? null)))) ?? 'null';
}

/** The actors of this server, with an index of seated humans (a user plays at one table at a time). */
export class TableRegistry {
  private readonly actors = new Map<string, TableActor>();
  /** userId → ids of the tables where the user holds a seat (normally one). */
  private readonly seated = new Map<string, Set<string>>();

  add(rec: TableRecord, seq: number, eventsSinceSnapshot = 0, epoch: number | null = null): TableActor {
    freezeCommitted(rec);
    const actor: TableActor = {
      rec,
      queue: Promise.resolve(),
      timer: null,
      results: new Map(),
      seq,
      eventsSinceSnapshot,
      epoch,
      gone: false,
      botPlan: null,
    };
    this.actors.set(rec.id, actor);
    this.index(rec, null);
    return actor;
  }

  get(id: string): TableActor | undefined {
    return this.actors.get(id);
  }

  all(): IterableIterator<TableActor> {
    return this.actors.values();
  }

  get size(): number {
    return this.actors.size;
  }

  /** Replaces the actor's record (after a stored command) and keeps the seat index in step. */
  update(actor: TableActor, rec: TableRecord): void {
    const prev = actor.rec;
    freezeCommitted(rec);
    actor.rec = rec;
    this.index(rec, prev);
  }

  remove(actor: TableActor): void {
    this.actors.delete(actor.rec.id);
    for (const s of actor.rec.seats) if (isHuman(s)) this.unseat(s.userId, actor.rec.id);
  }

  /** A table where the user holds a seat and the game is not over. */
  tableOfSeatedUser(userId: string): TableRecord | null {
    for (const id of this.seated.get(userId) ?? []) {
      const r = this.actors.get(id)?.rec;
      if (r && r.status !== 'CLOSED' && r.status !== 'COMPLETED') return r;
    }
    return null;
  }

  private index(rec: TableRecord, prev: TableRecord | null): void {
    if (prev) for (const s of prev.seats) if (isHuman(s)) this.unseat(s.userId, prev.id);
    for (const s of rec.seats)
      if (isHuman(s)) (this.seated.get(s.userId) ?? this.seated.set(s.userId, new Set()).get(s.userId)!).add(rec.id);
  }

  private unseat(userId: string, tableId: string): void {
    const set = this.seated.get(userId);
    if (!set) return;
    set.delete(tableId);
    if (!set.size) this.seated.delete(userId);
  }
}
