/**
 * A node's copy of the cluster-wide online set (cluster mode, see presence.store.ts). The store publishes every
 * change of that set as one message `{s, on, off}` numbered by a cluster-wide sequence; the mirror applies them in
 * order, ignores the ones a snapshot already holds, and reports a gap (a lost message) so the store resyncs from a
 * snapshot. Pure: no Redis, no timers.
 */
export interface PresenceMessage {
  /** Cluster-wide sequence number of this change (1, 2, …). */
  s: number;
  /** Users who came online cluster-wide. */
  on: string[];
  /** Users who went offline cluster-wide. */
  off: string[];
}

/** What a message or a snapshot changed in the mirror (users that really changed, in order). */
export interface PresenceDiff {
  online: string[];
  offline: string[];
}

export type ApplyResult = { kind: 'applied'; diff: PresenceDiff } | { kind: 'stale' } | { kind: 'gap' };

/** Parses a published message; null when it is not one (never throws). */
export function parsePresenceMessage(raw: string): PresenceMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const m = v as { s?: unknown; on?: unknown; off?: unknown };
  if (typeof m.s !== 'number' || !Number.isInteger(m.s) || m.s < 1) return null;
  // Lua's cjson encodes an empty table as {}: an absent or non-array side is "nobody"
  const ids = (x: unknown) => (Array.isArray(x) ? x.filter((u): u is string => typeof u === 'string') : []);
  return { s: m.s, on: ids(m.on), off: ids(m.off) };
}

export class PresenceMirror {
  private readonly users = new Set<string>();
  private seqValue = -1;

  /** Sequence number of the last change applied; -1 before the first snapshot. */
  get seq(): number {
    return this.seqValue;
  }

  get initialized(): boolean {
    return this.seqValue >= 0;
  }

  get size(): number {
    return this.users.size;
  }

  has(userId: string): boolean {
    return this.users.has(userId);
  }

  ids(): IterableIterator<string> {
    return this.users.values();
  }

  /** Applies the next message; one the mirror already holds is stale; one after a missing message is a gap. */
  apply(m: PresenceMessage): ApplyResult {
    if (!this.initialized || m.s <= this.seqValue) return { kind: 'stale' };
    if (m.s !== this.seqValue + 1) return { kind: 'gap' };
    this.seqValue = m.s;
    const diff: PresenceDiff = { online: [], offline: [] };
    for (const u of m.off) if (this.users.delete(u)) diff.offline.push(u);
    for (const u of m.on)
      if (!this.users.has(u)) {
        this.users.add(u);
        diff.online.push(u);
      }
    return { kind: 'applied', diff };
  }

  /**
   * Replaces the set with a snapshot taken at sequence `seq`; returns what that changed. `keepMissing`: the
   * snapshot may still lack users (Redis restarted empty and not every node registered again yet): users it lacks
   * stay, unreported, until a later reset without it.
   */
  reset(seq: number, snapshot: Iterable<string>, keepMissing = false): PresenceDiff {
    const next = new Set(snapshot);
    const diff: PresenceDiff = { online: [], offline: [] };
    if (keepMissing) for (const u of this.users) next.add(u);
    for (const u of this.users) if (!next.has(u)) diff.offline.push(u);
    for (const u of next) if (!this.users.has(u)) diff.online.push(u);
    this.users.clear();
    for (const u of next) this.users.add(u);
    this.seqValue = seq;
    return diff;
  }
}
