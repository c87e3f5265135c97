/**
 * A player's own data (issue #26): "Download my data" and "Delete my account".
 *
 * - `GET /api/users/me/data` → AccountExport (a JSON file download): everything the server stores about the
 *   caller, and only that — never another player's chat line, relation, report or private game data.
 * - `GET /api/users/me/deletion` → DeletionInfo: what the confirmation dialog needs.
 * - `POST /api/users/me/deletion` with DeleteAccountRequest → DeleteAccountResponse. The account is anonymized
 *   (its name becomes a neutral "Deleted #…" everywhere), its coins are closed into the house account through the
 *   ledger, every session is revoked, and its old name is held for `nameHoldDays` before anyone may take it.
 */

/** Format name and version of the export document. */
export const ACCOUNT_EXPORT_FORMAT = 'spades-account-export';
export const ACCOUNT_EXPORT_VERSION = 1;

/** Ledger reason of the transfer that closes a deleted account's balance into the house account. */
export const ACCOUNT_CLOSED_REASON = 'account_closed';

/** Display names of deleted accounts start with this (a `#` no chosen username can hold). */
export const DELETED_NAME_PREFIX = 'Deleted #';

/** Whether a display name is a deleted account's neutral name. */
export const isDeletedName = (name: string): boolean => name.startsWith(DELETED_NAME_PREFIX);

/** Typed refusals of the account routes (HTTP status + `{ message }`). */
export const ACCOUNT_MESSAGES = {
  passwordRequired: 'Enter your password to delete your account',
  wrongPassword: 'That password is not right',
  confirmRequired: 'Type your username exactly to confirm',
  atTable:
    'Leave your tables first: you are still part of a table that is open (seated, watching, or in its current game or chat). Try again once it has closed.',
  alreadyDeleted: 'This account was deleted',
} as const;

/** What deleting an account does, in the player's words (the dialog and the docs show the same lines). */
export function deletionEffects(nameHoldDays: number): string[] {
  const hold =
    nameHoldDays === 0
      ? 'Your username becomes free for anyone to take at once.'
      : `Your username stays reserved for ${nameHoldDays} day${nameHoldDays === 1 ? '' : 's'}, then anyone may take it.`;
  return [
    'You are signed out everywhere and cannot sign in to this account again.',
    'Your e-mail address, password, Discord link and picture are erased.',
    'Your name is replaced by a neutral "Deleted #…" name in game history, replays, leaderboards and chat.',
    'Your coins are returned to the house; friends, blocks, mutes and options are removed.',
    hold,
    'This cannot be undone. Download your data first if you want a copy.',
  ];
}

/** GET /api/users/me/deletion */
export interface DeletionInfo {
  username: string;
  /** true: confirm with the password; false (e.g. Discord-only): type the username. */
  hasPassword: boolean;
  /** Days the old name stays reserved after deletion (ACCOUNT_NAME_HOLD_DAYS). */
  nameHoldDays: number;
  /** Open tables that still include the player: deletion is refused until they are closed (ids). */
  openTables: string[];
  effects: string[];
}

/** POST /api/users/me/deletion */
export interface DeleteAccountRequest {
  /** Required when the account has a password. */
  password?: string;
  /** Required when it has none: the current username, typed exactly. */
  confirm?: string;
}

export interface DeleteAccountResponse {
  ok: true;
  deletedAt: string;
  /** When the old name may be taken again. */
  nameFreeAt: string;
  /** Coins closed into the house account. */
  coinsClosed: number;
}

/** One table chat line the player wrote (from the table's stored chat). */
export interface ExportedTableChatLine {
  gameId: string;
  id: string;
  message: string;
  at: string;
}

/** GET /api/users/me/data */
export interface AccountExport {
  format: typeof ACCOUNT_EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  profile: {
    id: string;
    username: string;
    email: string | null;
    avatar: string | null;
    discordLinked: boolean;
    hasPassword: boolean;
    role: string;
    createdAt: string;
    lastSignInAt: string | null;
    coins: number;
  };
  /** Per-mode counters (user_stats rows). */
  stats: Record<string, unknown>[];
  /** Finished games the player sat in: the game record (without the final engine state) and their seat. */
  games: Record<string, unknown>[];
  chat: {
    lobby: { id: string; message: string; at: string }[];
    tables: ExportedTableChatLine[];
  };
  ledger: {
    balance: number;
    entries: { id: string; transferId: string; amount: number; reason: string; refId: string | null; at: string }[];
  };
  ratings: {
    current: Record<string, unknown> | null;
    history: Record<string, unknown>[];
    bans: Record<string, unknown>[];
  };
  /** The player's own friends and blocks (not who befriended or blocked them). */
  relations: { targetId: string; targetName: string; kind: string; at: string }[];
  /** Players whose chat the player hides. */
  mutes: { targetId: string; targetName: string; at: string }[];
  /** Reports the player filed (without the captured context or staff notes). */
  reportsFiled: Record<string, unknown>[];
  /** Sanctions on the player (without the staff ids). */
  sanctions: Record<string, unknown>[];
  options: Record<string, unknown> | null;
  replayShares: Record<string, unknown>[];
}
