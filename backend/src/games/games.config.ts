/**
 * Durations and bot settings of the table engine, read from the environment (defaults from spec §9).
 * Tests shorten them by setting the variables before the app boots.
 */
export interface GamesConfig {
  /** Turn timer of a human seat (spec §4/§9: 30 s). */
  turnTimeoutMs: number;
  /** How long a completed trick stays on the table before `clear_trick` (2 s). */
  trickDisplayMs: number;
  /** Hand summary before the next hand is dealt automatically (12 s). */
  handSummaryMs: number;
  /** Result dialog before the table is reset or closed (30 s). */
  resultMs: number;
  /** Countdown after a seat is vacated before a bot fills it (120 s). */
  seatReplacementMs: number;
  /** Bot think time, uniform in [min, max] (spec: bot bid after 1.0–1.5 s). */
  botDelayMinMs: number;
  botDelayMaxMs: number;
  /** Consecutive turn timeouts after which a player is removed from the seat (3). */
  maxConsecutiveTimeouts: number;
  /** Preferred bot ('strong' falls back to the best available bot). */
  botLevel: string;
  /** Messages kept per table for game chat history. */
  chatHistory: number;
  /** How long a seat is held for an invited player (issue #12). */
  inviteReservationMs: number;
  /** A WAITING table whose host has been offline this long loses its host (closes when nobody is left): 60 s. */
  waitingHostTimeoutMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

export function loadGamesConfig(env: NodeJS.ProcessEnv = process.env): GamesConfig {
  const botDelayMinMs = int(env, 'BOT_DELAY_MIN_MS', 1000);
  const botDelayMaxMs = int(env, 'BOT_DELAY_MAX_MS', 1500);
  if (botDelayMaxMs < botDelayMinMs) throw new Error('BOT_DELAY_MAX_MS must be >= BOT_DELAY_MIN_MS');
  return {
    turnTimeoutMs: int(env, 'TURN_TIMEOUT_MS', 30_000, 1),
    trickDisplayMs: int(env, 'TRICK_DISPLAY_MS', 2_000),
    handSummaryMs: int(env, 'HAND_SUMMARY_MS', 12_000),
    resultMs: int(env, 'RESULT_MS', 30_000),
    seatReplacementMs: int(env, 'SEAT_REPLACEMENT_MS', 120_000),
    botDelayMinMs,
    botDelayMaxMs,
    maxConsecutiveTimeouts: int(env, 'MAX_CONSECUTIVE_TIMEOUTS', 3, 1),
    botLevel: env.BOT_LEVEL && env.BOT_LEVEL !== '' ? env.BOT_LEVEL : 'strong',
    chatHistory: int(env, 'GAME_CHAT_HISTORY', 100, 0),
    inviteReservationMs: int(env, 'INVITE_RESERVATION_MS', 60_000, 0),
    waitingHostTimeoutMs: int(env, 'WAITING_HOST_TIMEOUT_MS', 60_000, 1),
  };
}

export const GAMES_CONFIG = Symbol('GAMES_CONFIG');
