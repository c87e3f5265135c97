/**
 * Game settings (spec §4 Create Game form, §9 bounds) — one validator shared by the dialog and the server.
 */

export type GameMode = 'PARTNERS' | 'SOLO';
export type BiddingOption = 'REG' | 'WHIZ' | 'MIRROR' | 'GIMMICK';
export type Gimmick = 'SUICIDE' | '4 OR NIL' | 'BID 3' | 'BID HEARTS' | 'CRAZY ACES';

export const GAME_MODES: readonly GameMode[] = ['PARTNERS', 'SOLO'];
export const BIDDING_OPTIONS: readonly BiddingOption[] = ['REG', 'WHIZ', 'MIRROR', 'GIMMICK'];
export const GIMMICKS: readonly Gimmick[] = ['SUICIDE', '4 OR NIL', 'BID 3', 'BID HEARTS', 'CRAZY ACES'];

export interface SpecialRules {
  allowNil: boolean;
  allowBlindNil: boolean;
  screamer: boolean;
  assassin: boolean;
}

export interface GameSettings {
  gameMode: GameMode;
  biddingOption: BiddingOption;
  /**
   * The gimmick selector's value. Only effective when biddingOption is 'GIMMICK' (see effectiveGimmick);
   * the dialog keeps it (default SUICIDE preselected) while another option is chosen. validateSettings
   * normalises it to null when biddingOption is not 'GIMMICK'.
   */
  gimmick: Gimmick | null;
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  specialRules: SpecialRules;
}

export const MIN_POINTS_RANGE = { min: -250, max: -100, step: 50 } as const;
export const MAX_POINTS_RANGE = { min: 100, max: 650, step: 50 } as const;
/** Buy-in: ≥ 100,000; step 50,000 below 1,000,000 and 100,000 from there. The maximum (not in the spec) is our choice. */
export const BUY_IN_MIN = 100_000;
export const BUY_IN_MAX = 1_000_000_000;
export const BUY_IN_STEP_THRESHOLD = 1_000_000;
export const BUY_IN_SMALL_STEP = 50_000;
export const BUY_IN_LARGE_STEP = 100_000;

/** Spec §4 defaults: PARTNERS, REG, −100, 500, 100k, Nil on, Blind Nil off, no special rule, SUICIDE preselected. */
export const DEFAULT_SETTINGS: GameSettings = Object.freeze({
  gameMode: 'PARTNERS',
  biddingOption: 'REG',
  gimmick: 'SUICIDE',
  minPoints: -100,
  maxPoints: 500,
  buyIn: 100_000,
  specialRules: Object.freeze({ allowNil: true, allowBlindNil: false, screamer: false, assassin: false }),
}) as GameSettings;

export function effectiveGimmick(settings: GameSettings): Gimmick | null {
  return settings.biddingOption === 'GIMMICK' ? settings.gimmick : null;
}

/**
 * Whether the bidding option (with its gimmick) can ever offer a blind nil (clarification 1): only where
 * nil is legal whatever the cards — REG, 4 OR NIL and SUICIDE. Never WHIZ, MIRROR, BID 3, BID HEARTS or
 * CRAZY ACES, so the Blind Nil toggle is off and disabled for those, and validateSettings rejects it on.
 */
export function blindNilOffered(settings: Pick<GameSettings, 'biddingOption' | 'gimmick'>): boolean {
  if (settings.biddingOption === 'REG') return true;
  if (settings.biddingOption !== 'GIMMICK') return false;
  return settings.gimmick === 'SUICIDE' || settings.gimmick === '4 OR NIL';
}

export const SettingsError = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_GAME_MODE: 'INVALID_GAME_MODE',
  INVALID_BIDDING_OPTION: 'INVALID_BIDDING_OPTION',
  INVALID_GIMMICK: 'INVALID_GIMMICK',
  SUICIDE_PARTNERS_ONLY: 'SUICIDE_PARTNERS_ONLY',
  INVALID_MIN_POINTS: 'INVALID_MIN_POINTS',
  INVALID_MAX_POINTS: 'INVALID_MAX_POINTS',
  INVALID_BUY_IN: 'INVALID_BUY_IN',
  INVALID_SPECIAL_RULES: 'INVALID_SPECIAL_RULES',
  MIRROR_REQUIRES_NIL: 'MIRROR_REQUIRES_NIL',
  MIRROR_FORBIDS_BLIND_NIL: 'MIRROR_FORBIDS_BLIND_NIL',
  /** Blind Nil on with WHIZ, BID 3, BID HEARTS or CRAZY ACES (clarification 1; MIRROR has its own code). */
  BLIND_NIL_NOT_OFFERED: 'BLIND_NIL_NOT_OFFERED',
  BLIND_NIL_REQUIRES_NIL: 'BLIND_NIL_REQUIRES_NIL',
  SCREAMER_AND_ASSASSIN: 'SCREAMER_AND_ASSASSIN',
} as const;
export type SettingsErrorCode = (typeof SettingsError)[keyof typeof SettingsError];

export type SettingsResult =
  { ok: true; settings: GameSettings } | { ok: false; error: SettingsErrorCode; message: string };

function fail(error: SettingsErrorCode, message: string): SettingsResult {
  return { ok: false, error, message };
}

function isInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n);
}

export function isValidMinPoints(n: unknown): boolean {
  return (
    isInt(n) &&
    n >= MIN_POINTS_RANGE.min &&
    n <= MIN_POINTS_RANGE.max &&
    (n - MIN_POINTS_RANGE.min) % MIN_POINTS_RANGE.step === 0
  );
}

export function isValidMaxPoints(n: unknown): boolean {
  return (
    isInt(n) &&
    n >= MAX_POINTS_RANGE.min &&
    n <= MAX_POINTS_RANGE.max &&
    (n - MAX_POINTS_RANGE.min) % MAX_POINTS_RANGE.step === 0
  );
}

export function isValidBuyIn(n: unknown): boolean {
  if (!isInt(n) || n < BUY_IN_MIN || n > BUY_IN_MAX) return false;
  return n < BUY_IN_STEP_THRESHOLD ? n % BUY_IN_SMALL_STEP === 0 : n % BUY_IN_LARGE_STEP === 0;
}

/**
 * Validates settings from any source (dialog, HTTP, socket). Accepts the GameSettings shape and also the
 * spec's creation-request shape, where biddingOption may be a gimmick name directly (e.g. 'BID 3')
 * and gamePlayOption is 'REG'. Also accepts allowNil/allowBlindNil given at top level or under `rules`.
 * Returns normalised settings (gimmick null unless biddingOption is GIMMICK) or the first error found.
 */
export function validateSettings(input: unknown): SettingsResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(SettingsError.INVALID_INPUT, 'Settings must be an object');
  }
  const o = input as Record<string, unknown>;
  const gameMode = o.gameMode;
  if (gameMode !== 'PARTNERS' && gameMode !== 'SOLO') {
    return fail(SettingsError.INVALID_GAME_MODE, 'Game mode must be PARTNERS or SOLO');
  }
  let biddingOption = o.biddingOption as unknown;
  let gimmick = (o.gimmick ?? null) as unknown;
  if (typeof biddingOption === 'string' && (GIMMICKS as readonly string[]).includes(biddingOption)) {
    gimmick = biddingOption;
    biddingOption = 'GIMMICK';
  }
  if (!(BIDDING_OPTIONS as readonly unknown[]).includes(biddingOption)) {
    return fail(SettingsError.INVALID_BIDDING_OPTION, 'Bidding option must be REG, WHIZ, MIRROR or GIMMICK');
  }
  if (o.gamePlayOption !== undefined && o.gamePlayOption !== 'REG') {
    return fail(SettingsError.INVALID_INPUT, 'gamePlayOption must be REG');
  }
  if (biddingOption === 'GIMMICK') {
    if (!(GIMMICKS as readonly unknown[]).includes(gimmick)) {
      return fail(
        SettingsError.INVALID_GIMMICK,
        'Choose a gimmick: SUICIDE, 4 OR NIL, BID 3, BID HEARTS or CRAZY ACES',
      );
    }
    if (gimmick === 'SUICIDE' && gameMode === 'SOLO') {
      return fail(SettingsError.SUICIDE_PARTNERS_ONLY, 'SUICIDE is for PARTNERS games only');
    }
  } else {
    if (gimmick !== null && !(GIMMICKS as readonly unknown[]).includes(gimmick)) {
      return fail(SettingsError.INVALID_GIMMICK, 'Unknown gimmick');
    }
    gimmick = null;
  }
  if (!isValidMinPoints(o.minPoints)) {
    return fail(SettingsError.INVALID_MIN_POINTS, 'Min points must be -250 to -100 in steps of 50');
  }
  if (!isValidMaxPoints(o.maxPoints)) {
    return fail(SettingsError.INVALID_MAX_POINTS, 'Max points must be 100 to 650 in steps of 50');
  }
  if (!isValidBuyIn(o.buyIn)) {
    return fail(
      SettingsError.INVALID_BUY_IN,
      'Buy-in must be at least 100,000 (steps of 50,000 below 1,000,000, of 100,000 from there) and at most 1,000,000,000',
    );
  }
  const sr = o.specialRules;
  if (typeof sr !== 'object' || sr === null) {
    return fail(SettingsError.INVALID_SPECIAL_RULES, 'specialRules must be an object');
  }
  const s = sr as Record<string, unknown>;
  const rules = (typeof o.rules === 'object' && o.rules !== null ? o.rules : {}) as Record<string, unknown>;
  const allowNil = s.allowNil ?? o.allowNil ?? rules.allowNil;
  const allowBlindNil = s.allowBlindNil ?? o.allowBlindNil ?? rules.allowBlindNil ?? false;
  const screamer = s.screamer ?? false;
  const assassin = s.assassin ?? false;
  for (const v of [allowNil, allowBlindNil, screamer, assassin]) {
    if (typeof v !== 'boolean') {
      return fail(
        SettingsError.INVALID_SPECIAL_RULES,
        'allowNil, allowBlindNil, screamer and assassin must be booleans',
      );
    }
  }
  if (biddingOption === 'MIRROR' && !allowNil) {
    return fail(SettingsError.MIRROR_REQUIRES_NIL, 'MIRROR requires Nil to be on');
  }
  if (biddingOption === 'MIRROR' && allowBlindNil) {
    return fail(SettingsError.MIRROR_FORBIDS_BLIND_NIL, 'MIRROR does not allow Blind Nil');
  }
  if (
    allowBlindNil &&
    !blindNilOffered({ biddingOption: biddingOption as BiddingOption, gimmick: gimmick as Gimmick | null })
  ) {
    return fail(SettingsError.BLIND_NIL_NOT_OFFERED, 'Blind Nil is only possible with REG, SUICIDE or 4 OR NIL');
  }
  if (allowBlindNil && !allowNil) {
    return fail(SettingsError.BLIND_NIL_REQUIRES_NIL, 'Blind Nil requires Nil');
  }
  if (screamer && assassin) {
    return fail(SettingsError.SCREAMER_AND_ASSASSIN, 'Screamer and Assassin are mutually exclusive');
  }
  return {
    ok: true,
    settings: {
      gameMode,
      biddingOption: biddingOption as BiddingOption,
      gimmick: gimmick as Gimmick | null,
      minPoints: o.minPoints as number,
      maxPoints: o.maxPoints as number,
      buyIn: o.buyIn as number,
      specialRules: {
        allowNil: allowNil as boolean,
        allowBlindNil: allowBlindNil as boolean,
        screamer: screamer as boolean,
        assassin: assassin as boolean,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Create Game dialog helpers (pure): form coupling rules of §4, steppers and formatting of §9.

/** One change made in the Create Game form. */
export type SettingsChange =
  | { field: 'gameMode'; value: GameMode }
  | { field: 'biddingOption'; value: BiddingOption }
  | { field: 'gimmick'; value: Gimmick }
  | { field: 'minPoints'; value: number }
  | { field: 'maxPoints'; value: number }
  | { field: 'buyIn'; value: number }
  | { field: 'allowNil'; value: boolean }
  | { field: 'allowBlindNil'; value: boolean }
  | { field: 'screamer'; value: boolean }
  | { field: 'assassin'; value: boolean };

/**
 * Applies one form change with §4's coupling rules and returns new settings (input untouched):
 * SOLO while gimmick SUICIDE → 4 OR NIL (and SUICIDE cannot be chosen in SOLO: becomes 4 OR NIL);
 * MIRROR forces Nil on and Blind Nil off and the toggles cannot change while MIRROR is chosen;
 * WHIZ, BID 3, BID HEARTS and CRAZY ACES (clarification 1: never a blind nil) force Blind Nil off and
 * it cannot be turned on while one of them is chosen; Nil off → Blind Nil off; Blind Nil on → Nil on; Screamer and Assassin exclude each other (the
 * one turned on wins).
 */
export function applySettingsChange(settings: GameSettings, change: SettingsChange): GameSettings {
  const next: GameSettings = { ...settings, specialRules: { ...settings.specialRules } };
  const sr = next.specialRules;
  const mirror = settings.biddingOption === 'MIRROR';
  switch (change.field) {
    case 'gameMode':
      next.gameMode = change.value;
      if (change.value === 'SOLO' && next.gimmick === 'SUICIDE') next.gimmick = '4 OR NIL';
      break;
    case 'biddingOption':
      next.biddingOption = change.value;
      if (change.value === 'MIRROR') sr.allowNil = true; // Blind Nil off: below, as for every option without it
      if (change.value === 'GIMMICK' && next.gimmick === null) {
        next.gimmick = next.gameMode === 'SOLO' ? '4 OR NIL' : 'SUICIDE';
      }
      break;
    case 'gimmick':
      next.gimmick = change.value === 'SUICIDE' && next.gameMode === 'SOLO' ? '4 OR NIL' : change.value;
      break;
    case 'minPoints':
      next.minPoints = clampStep(change.value, MIN_POINTS_RANGE.min, MIN_POINTS_RANGE.max, MIN_POINTS_RANGE.step);
      break;
    case 'maxPoints':
      next.maxPoints = clampStep(change.value, MAX_POINTS_RANGE.min, MAX_POINTS_RANGE.max, MAX_POINTS_RANGE.step);
      break;
    case 'buyIn':
      next.buyIn = normalizeBuyIn(change.value);
      break;
    case 'allowNil':
      if (mirror) break; // disabled while MIRROR is chosen
      sr.allowNil = change.value;
      if (!change.value) sr.allowBlindNil = false;
      break;
    case 'allowBlindNil':
      if (!blindNilOffered(settings)) break; // disabled: this bidding option never offers a blind nil
      sr.allowBlindNil = change.value;
      if (change.value) sr.allowNil = true;
      break;
    case 'screamer':
      sr.screamer = change.value;
      if (change.value) sr.assassin = false;
      break;
    case 'assassin':
      sr.assassin = change.value;
      if (change.value) sr.screamer = false;
      break;
  }
  if (!blindNilOffered(next)) sr.allowBlindNil = false;
  return next;
}

/** Which dialog controls are disabled (§4). */
export function settingsControlState(settings: GameSettings): {
  gimmickEnabled: boolean;
  nilEnabled: boolean;
  blindNilEnabled: boolean;
  suicideSelectable: boolean;
} {
  const mirror = settings.biddingOption === 'MIRROR';
  return {
    gimmickEnabled: settings.biddingOption === 'GIMMICK',
    nilEnabled: !mirror,
    blindNilEnabled: blindNilOffered(settings) && settings.specialRules.allowNil,
    suicideSelectable: settings.gameMode === 'PARTNERS',
  };
}

function clampStep(v: number, min: number, max: number, step: number): number {
  if (!Number.isFinite(v)) return min;
  const c = Math.min(max, Math.max(min, v));
  return min + Math.round((c - min) / step) * step;
}

/** Rounds any number to the nearest valid buy-in (clamped to [BUY_IN_MIN, BUY_IN_MAX]). */
export function normalizeBuyIn(v: number): number {
  if (!Number.isFinite(v)) return BUY_IN_MIN;
  const c = Math.min(BUY_IN_MAX, Math.max(BUY_IN_MIN, v));
  const step = c < BUY_IN_STEP_THRESHOLD ? BUY_IN_SMALL_STEP : BUY_IN_LARGE_STEP;
  return Math.min(BUY_IN_MAX, Math.max(BUY_IN_MIN, Math.round(c / step) * step));
}

/** Next valid buy-in above `buyIn` (50k steps below 1M, 100k from there), capped at BUY_IN_MAX. */
export function nextBuyIn(buyIn: number): number {
  const b = normalizeBuyIn(buyIn);
  const step = b < BUY_IN_STEP_THRESHOLD ? BUY_IN_SMALL_STEP : BUY_IN_LARGE_STEP;
  return Math.min(BUY_IN_MAX, b + step);
}

/** Previous valid buy-in below `buyIn`, floored at BUY_IN_MIN (1,000,000 → 950,000). */
export function prevBuyIn(buyIn: number): number {
  const b = normalizeBuyIn(buyIn);
  const step = b <= BUY_IN_STEP_THRESHOLD ? BUY_IN_SMALL_STEP : BUY_IN_LARGE_STEP;
  return Math.max(BUY_IN_MIN, b - step);
}

export function nextMinPoints(v: number): number {
  return clampStep(v + MIN_POINTS_RANGE.step, MIN_POINTS_RANGE.min, MIN_POINTS_RANGE.max, MIN_POINTS_RANGE.step);
}
export function prevMinPoints(v: number): number {
  return clampStep(v - MIN_POINTS_RANGE.step, MIN_POINTS_RANGE.min, MIN_POINTS_RANGE.max, MIN_POINTS_RANGE.step);
}
export function nextMaxPoints(v: number): number {
  return clampStep(v + MAX_POINTS_RANGE.step, MAX_POINTS_RANGE.min, MAX_POINTS_RANGE.max, MAX_POINTS_RANGE.step);
}
export function prevMaxPoints(v: number): number {
  return clampStep(v - MAX_POINTS_RANGE.step, MAX_POINTS_RANGE.min, MAX_POINTS_RANGE.max, MAX_POINTS_RANGE.step);
}

/** Trims a fixed-1-decimal number: 1.0 → '1', 1.5 → '1.5' (truncated, never rounded up). */
function oneDecimal(v: number, keepZero: boolean): string {
  const tenths = Math.floor(Math.round(v * 1000) / 100); // guard against float noise, then truncate
  const s = (tenths / 10).toFixed(1);
  return keepZero ? s : s.replace(/\.0$/, '');
}

/**
 * Create Game dialog format (§9): 'Nk' below 1,000,000 (100000 → '100k', 150000 → '150k'),
 * 'N.Nmil' from 1,000,000 (1000000 → '1.0mil', 1500000 → '1.5mil').
 */
export function formatBuyIn(coins: number): string {
  if (Math.abs(coins) >= 1_000_000) return `${oneDecimal(coins / 1_000_000, true)}mil`;
  return `${oneDecimal(coins / 1_000, false)}k`;
}

/**
 * Coins elsewhere, compact (§9, k or M): below 1,000 as is; then k / M with at most four significant digits,
 * truncated (never rounded up), trailing zeros dropped, so that a change of a tenth of a percent still shows:
 * 950 → '950', 1500 → '1.5k', 100000 → '100k', 5000000 → '5M', 5080000 → '5.08M', 1250000 → '1.25M',
 * 2160000 → '2.16M', 12345678 → '12.34M'. Where money is shown in full use `formatCoinsExact`.
 */
export function formatCoins(coins: number): string {
  const sign = coins < 0 ? '-' : '';
  const a = Math.abs(Math.trunc(coins));
  if (a < 1_000) return `${sign}${a}`;
  const [unit, div] = a >= 1_000_000 ? ['M', 1_000_000] : ['k', 1_000];
  const whole = Math.floor(a / div);
  const decimals = Math.max(0, 4 - String(whole).length);
  // integer arithmetic: no float noise, truncated
  const scaled = Math.floor((a * 10 ** decimals) / div);
  const int = Math.floor(scaled / 10 ** decimals);
  const frac = decimals
    ? String(scaled % 10 ** decimals)
        .padStart(decimals, '0')
        .replace(/0+$/, '')
    : '';
  return `${sign}${int}${frac ? `.${frac}` : ''}${unit}`;
}

/** Coins in full with thousands separators: 5080000 → '5,080,000' (balance tooltip, profile, prizes, results). */
export function formatCoinsExact(coins: number): string {
  const sign = coins < 0 ? '-' : '';
  return sign + String(Math.abs(Math.trunc(coins))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The spec's list-item wire fields (§3): rules.gameType and forcedBid. */
export type ListGameType = 'REGULAR' | 'WHIZ' | 'MIRROR' | 'SOLO';
export type ForcedBid = 'NONE' | 'BID4NIL' | 'BID3' | 'BIDHEARTS' | 'SUICIDE' | 'CRAZY ACES';

const FORCED_BID: Record<Gimmick, ForcedBid> = {
  SUICIDE: 'SUICIDE',
  '4 OR NIL': 'BID4NIL',
  'BID 3': 'BID3',
  'BID HEARTS': 'BIDHEARTS',
  'CRAZY ACES': 'CRAZY ACES',
};

/**
 * Maps settings to the list item's wire fields. rules.gameType: 'SOLO' for solo games (the spec derives
 * gameMode from it), otherwise REGULAR / WHIZ / MIRROR (a GIMMICK game is REGULAR with its forcedBid).
 */
export function toListItemRules(settings: GameSettings): {
  gameMode: GameMode;
  forcedBid: ForcedBid;
  specialRules: { assassin: boolean; screamer: boolean };
  rules: { gameType: ListGameType; allowNil: boolean; allowBlindNil: boolean; coinAmount: number };
  minPoints: number;
  maxPoints: number;
  buyIn: number;
} {
  const g = effectiveGimmick(settings);
  const gameType: ListGameType =
    settings.gameMode === 'SOLO'
      ? 'SOLO'
      : settings.biddingOption === 'WHIZ'
        ? 'WHIZ'
        : settings.biddingOption === 'MIRROR'
          ? 'MIRROR'
          : 'REGULAR';
  return {
    gameMode: settings.gameMode,
    forcedBid: g ? FORCED_BID[g] : 'NONE',
    specialRules: { assassin: settings.specialRules.assassin, screamer: settings.specialRules.screamer },
    rules: {
      gameType,
      allowNil: settings.specialRules.allowNil,
      allowBlindNil: settings.specialRules.allowBlindNil,
      coinAmount: settings.buyIn,
    },
    minPoints: settings.minPoints,
    maxPoints: settings.maxPoints,
    buyIn: settings.buyIn,
  };
}

/** The spec's creation request body (§3) for these settings. */
export function toCreateGameRequest(settings: GameSettings): {
  gameMode: GameMode;
  biddingOption: 'REG' | 'WHIZ' | 'MIRROR' | Gimmick;
  gamePlayOption: 'REG';
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  specialRules: SpecialRules;
} {
  const g = effectiveGimmick(settings);
  return {
    gameMode: settings.gameMode,
    biddingOption: g ?? (settings.biddingOption as 'REG' | 'WHIZ' | 'MIRROR'),
    gamePlayOption: 'REG',
    minPoints: settings.minPoints,
    maxPoints: settings.maxPoints,
    buyIn: settings.buyIn,
    specialRules: { ...settings.specialRules },
  };
}
