/**
 * Issue #28: the little client state quick play keeps between screens: the partner of a quick-play table (for
 * "Keep partner" in the result dialog), per table, in sessionStorage.
 */
import type { QueueMode, QueuePace, StakeBand } from '@spades/common';

export interface QueueChoice {
  mode: QueueMode;
  stake: StakeBand;
  pace: QueuePace;
}

export interface KeptPartner extends QueueChoice {
  partnerId: string;
  partnerName: string;
}

const key = (gameId: string) => `spades.quickplay.partner:${gameId}`;

export function rememberPartner(gameId: string, p: KeptPartner): void {
  try {
    sessionStorage.setItem(key(gameId), JSON.stringify(p));
  } catch {
    /* storage off: no Keep partner */
  }
}

export function partnerOf(gameId: string | undefined): KeptPartner | null {
  if (!gameId) return null;
  try {
    const raw = sessionStorage.getItem(key(gameId));
    const p = raw ? (JSON.parse(raw) as KeptPartner) : null;
    return p && typeof p.partnerId === 'string' ? p : null;
  } catch {
    return null;
  }
}

/** "~45 s", "~2 min". */
export function formatWait(ms: number | undefined): string {
  if (ms === undefined) return '';
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `~${s} s` : `~${Math.round(s / 60)} min`;
}

const WANT_KEY = 'spades.quickplay.want';

/** The queue this tab wants to be in (survives a reload: the panel queues again when its socket is back). */
export function loadWanted(): QueueChoice | null {
  try {
    const raw = sessionStorage.getItem(WANT_KEY);
    return raw ? (JSON.parse(raw) as QueueChoice) : null;
  } catch {
    return null;
  }
}

export function saveWanted(c: QueueChoice | null): void {
  try {
    if (c) sessionStorage.setItem(WANT_KEY, JSON.stringify(c));
    else sessionStorage.removeItem(WANT_KEY);
  } catch {
    /* storage off: only this page's memory */
  }
}
