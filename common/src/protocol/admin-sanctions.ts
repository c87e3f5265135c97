/**
 * Sanctions (issue #25): what a moderator (or the server's auto-mute) does to a player. One row per sanction;
 * a sanction is active while `endsAt` is null or in the future and it was not lifted. Declared here so the
 * players console, the reports queue (resolve with an action) and the player's own client agree.
 */

export type SanctionKind = 'warn' | 'mute' | 'ban' | 'rename';
/** A mute silences chat: 'all' = lobby and table chat (a moderator's mute), 'lobby' = lobby chat only (auto-mute). */
export type MuteScope = 'all' | 'lobby';

export interface Sanction {
  id: string;
  userId: string;
  kind: SanctionKind;
  /** Only for mutes. */
  scope: MuteScope | null;
  reason: string;
  /** null for warn/rename, and for a ban/mute "for good" (or an auto-mute "until reviewed"). */
  endsAt: string | null;
  /** null = the server (auto-mute). */
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
}

/** What a moderator asks for (POST /api/admin/players/:id/sanctions). `minutes` null = for good. */
export type SanctionRequest =
  | { kind: 'warn'; reason: string }
  | { kind: 'mute'; reason: string; minutes: number | null }
  | { kind: 'ban'; reason: string; minutes: number | null }
  | { kind: 'rename'; reason: string; newUsername: string };

/** Longest timed mute/ban a request may ask for (a year); longer = for good (minutes null). */
export const SANCTION_MAX_MINUTES = 525_600;

/** What a sanctioned player is told (socket `sanction_notice`, and `GET /api/auth/profile`'s `standing`). */
export interface SanctionNotice {
  kind: SanctionKind;
  reason: string;
  endsAt: string | null;
  scope: MuteScope | null;
}
