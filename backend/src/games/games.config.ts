/**
 * Durations and bot settings of the table engine, read from the environment (defaults from spec §9).
 * Tests shorten them by setting the variables before the app boots.
 */
import { z } from 'zod';
import { envIntAtLeast, parseEnvOrThrow } from '../config/config.schema';

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

/** The games module's environment variables (zod, with the app config's helpers); defaults from spec §9. */
export const gamesEnvSchema = z.object({
  TURN_TIMEOUT_MS: envIntAtLeast('TURN_TIMEOUT_MS', 30_000, 1).describe('turn timer of a human seat, ms'),
  TRICK_DISPLAY_MS: envIntAtLeast('TRICK_DISPLAY_MS', 2_000).describe('a completed trick stays this long, ms'),
  HAND_SUMMARY_MS: envIntAtLeast('HAND_SUMMARY_MS', 12_000).describe('hand summary before the next deal, ms'),
  RESULT_MS: envIntAtLeast('RESULT_MS', 30_000).describe('result dialog before the table resets, ms'),
  SEAT_REPLACEMENT_MS: envIntAtLeast('SEAT_REPLACEMENT_MS', 120_000).describe(
    'vacated seat countdown before a bot, ms',
  ),
  BOT_DELAY_MIN_MS: envIntAtLeast('BOT_DELAY_MIN_MS', 1000).describe('bot think time, lower bound, ms'),
  BOT_DELAY_MAX_MS: envIntAtLeast('BOT_DELAY_MAX_MS', 1500).describe('bot think time, upper bound, ms'),
  MAX_CONSECUTIVE_TIMEOUTS: envIntAtLeast('MAX_CONSECUTIVE_TIMEOUTS', 3, 1).describe('missed turns before removal'),
  BOT_LEVEL: z
    .preprocess((v) => (v === undefined || v === '' ? 'strong' : v), z.string())
    .describe("preferred bot ('strong' falls back to the best available bot)"),
  GAME_CHAT_HISTORY: envIntAtLeast('GAME_CHAT_HISTORY', 100, 0).describe('chat messages kept per table'),
  INVITE_RESERVATION_MS: envIntAtLeast('INVITE_RESERVATION_MS', 60_000, 0).describe('seat held for an invitee, ms'),
  WAITING_HOST_TIMEOUT_MS: envIntAtLeast('WAITING_HOST_TIMEOUT_MS', 60_000, 1).describe(
    'a waiting table loses an offline host after this, ms',
  ),
});

export function loadGamesConfig(env: NodeJS.ProcessEnv = process.env): GamesConfig {
  const e = parseEnvOrThrow(gamesEnvSchema, env);
  if (e.BOT_DELAY_MAX_MS < e.BOT_DELAY_MIN_MS) throw new Error('BOT_DELAY_MAX_MS must be >= BOT_DELAY_MIN_MS');
  return {
    turnTimeoutMs: e.TURN_TIMEOUT_MS,
    trickDisplayMs: e.TRICK_DISPLAY_MS,
    handSummaryMs: e.HAND_SUMMARY_MS,
    resultMs: e.RESULT_MS,
    seatReplacementMs: e.SEAT_REPLACEMENT_MS,
    botDelayMinMs: e.BOT_DELAY_MIN_MS,
    botDelayMaxMs: e.BOT_DELAY_MAX_MS,
    maxConsecutiveTimeouts: e.MAX_CONSECUTIVE_TIMEOUTS,
    botLevel: e.BOT_LEVEL,
    chatHistory: e.GAME_CHAT_HISTORY,
    inviteReservationMs: e.INVITE_RESERVATION_MS,
    waitingHostTimeoutMs: e.WAITING_HOST_TIMEOUT_MS,
  };
}

export const GAMES_CONFIG = Symbol('GAMES_CONFIG');
