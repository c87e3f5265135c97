/**
 * Per-player options (issue #31), stored on the server for the account and used by both clients:
 * `GET /api/users/me/options` → PlayerOptions (defaults for an account that never saved any);
 * `PUT /api/users/me/options` with a PlayerOptionsInput (any subset of the fields; the others keep their stored
 * value) → the stored PlayerOptions. An unknown field or a bad value is a 400 `{ message }` and changes nothing.
 */

export type CardSize = 'normal' | 'large';

export interface PlayerOptions {
  /** Four-colour deck: ♠ black, ♥ red, ♦ blue, ♣ green (instead of two colours). */
  fourColourDeck: boolean;
  /** Card size at the table; 'large' keeps the hand and the trick readable (cards overlap more). */
  cardSize: CardSize;
  /** No dealing, sliding or pulsing animations (also on when the system asks for reduced motion). */
  reducedMotion: boolean;
  /** Sound volume 0–100 (0 = silent; 100 = the spec §9 volumes). */
  soundVolume: number;
  /** Show the quick-chat row and other players' quick-chat lines and emotes. */
  quickChat: boolean;
  /** In unrated games: show the strong bot's suggested bid while bidding. */
  bidHint: boolean;
}

export type PlayerOptionsInput = Partial<PlayerOptions>;

export const DEFAULT_PLAYER_OPTIONS: Readonly<PlayerOptions> = Object.freeze({
  fourColourDeck: false,
  cardSize: 'normal',
  reducedMotion: false,
  soundVolume: 100,
  quickChat: true,
  bidHint: false,
});

export const PLAYER_OPTIONS_PATH = '/api/users/me/options';

export const OPTIONS_ERRORS = {
  notObject: 'Options must be an object',
  unknown: (key: string) => `Unknown option: ${key}`,
  boolean: (key: string) => `${key} must be true or false`,
  cardSize: "cardSize must be 'normal' or 'large'",
  soundVolume: 'soundVolume must be an integer from 0 to 100',
} as const;

const BOOLEAN_KEYS = ['fourColourDeck', 'reducedMotion', 'quickChat', 'bidHint'] as const;

/** Validates an options change (any subset of the fields). */
export function parsePlayerOptionsInput(
  input: unknown,
): { ok: true; value: PlayerOptionsInput } | { ok: false; message: string } {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return { ok: false, message: OPTIONS_ERRORS.notObject };
  const out: PlayerOptionsInput = {};
  for (const [key, v] of Object.entries(input as Record<string, unknown>)) {
    if ((BOOLEAN_KEYS as readonly string[]).includes(key)) {
      if (typeof v !== 'boolean') return { ok: false, message: OPTIONS_ERRORS.boolean(key) };
      out[key as (typeof BOOLEAN_KEYS)[number]] = v;
    } else if (key === 'cardSize') {
      if (v !== 'normal' && v !== 'large') return { ok: false, message: OPTIONS_ERRORS.cardSize };
      out.cardSize = v;
    } else if (key === 'soundVolume') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100)
        return { ok: false, message: OPTIONS_ERRORS.soundVolume };
      out.soundVolume = v;
    } else return { ok: false, message: OPTIONS_ERRORS.unknown(key) };
  }
  return { ok: true, value: out };
}

/** Stored (or cached) options over the defaults: fields that are missing or no longer valid take the default. */
export function normalizePlayerOptions(stored: unknown): PlayerOptions {
  const out: PlayerOptions = { ...DEFAULT_PLAYER_OPTIONS };
  if (!stored || typeof stored !== 'object') return out;
  for (const [key, v] of Object.entries(stored as Record<string, unknown>)) {
    const one = parsePlayerOptionsInput({ [key]: v });
    if (one.ok) Object.assign(out, one.value);
  }
  return out;
}
