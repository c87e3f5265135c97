import { useSyncExternalStore } from 'react';
import {
  MUTES_PATH,
  STANDING_PATH,
  type PlayerMuteList,
  type PlayerMuteResult,
  type PlayerStanding,
  type SanctionNotice,
} from '@spades/common';
import { api } from '../lib/api';

/**
 * What the signed-in player knows about moderation (issue #25), shared without a provider (like the public
 * settings): their own active mute (from GET /api/moderation/standing and `sanction_notice` events) and the
 * players they muted (GET /api/mutes; their chat lines are hidden, also the ones already on screen).
 */
export interface ModerationState {
  /** My active chat mute, if any. */
  mute: SanctionNotice | null;
  /** Players I muted. */
  mutedIds: ReadonlySet<string>;
}

let state: ModerationState = { mute: null, mutedIds: new Set() };
const listeners = new Set<() => void>();

function publish(next: Partial<ModerationState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => void listeners.delete(l);
}

export function useModeration(): ModerationState {
  return useSyncExternalStore(subscribe, () => state);
}

/** A mute counts while it has no end or its end is in the future. */
export function activeMute(m: SanctionNotice | null, now = Date.now()): SanctionNotice | null {
  if (!m || m.kind !== 'mute') return null;
  return m.endsAt === null || new Date(m.endsAt).getTime() > now ? m : null;
}

export function setMyMute(m: SanctionNotice | null): void {
  publish({ mute: m });
}

/** Reads my standing; returns the notices not shown before (warnings, forced renames). */
export async function loadStanding(): Promise<SanctionNotice[]> {
  const s = await api.get<PlayerStanding>(STANDING_PATH);
  publish({ mute: s?.mute ?? null });
  return Array.isArray(s?.notices) ? s.notices : [];
}

export async function loadMutes(): Promise<void> {
  const list = await api.get<PlayerMuteList>(MUTES_PATH);
  publish({ mutedIds: new Set((list?.mutes ?? []).map((m) => m.userId)) });
}

/** Mute or unmute a player (idempotent on the server). */
export async function setPlayerMuted(userId: string, muted: boolean): Promise<void> {
  const path = `${MUTES_PATH}/${encodeURIComponent(userId)}`;
  const r = muted ? await api.put<PlayerMuteResult>(path) : await api.del<PlayerMuteResult>(path);
  const next = new Set(state.mutedIds);
  if (r?.muted ?? muted) next.add(userId);
  else next.delete(userId);
  publish({ mutedIds: next });
}

/** Signed out: forget everything. */
export function resetModeration(): void {
  publish({ mute: null, mutedIds: new Set() });
}
