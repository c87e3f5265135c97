/**
 * Server settings (issue #25): what a host changes in the console (admins only), stored on the server and live on
 * every node without a restart. One validator (`checkSettingsPatch`) shared by the console form and the server; the
 * chat word filter (`filterChatWords`) and the table presets (`tablePresetOf`) are pure functions called by the
 * server and the client alike.
 *
 * Routes:
 * - GET  /api/settings/public                         → PublicServerSettings (no token; what every client shows)
 * - GET  /api/admin/settings                          → AdminSettingsView (admins)
 * - PUT  /api/admin/settings      SettingsUpdateRequest → AdminSettingsView (admins; audited 'settings.update')
 * - GET  /api/admin/invite-codes                      → InviteCode[] (admins)
 * - POST /api/admin/invite-codes  InviteCodeCreateRequest → InviteCode (admins; audited 'invite.create')
 * - POST /api/admin/invite-codes/:code/revoke {reason}  → InviteCode (admins; audited 'invite.revoke')
 * Socket: `announcement` (Announcement | null) to every connected client when the banner changes, and to each socket
 * when it connects while a banner is up.
 */
import { SSO_PROVIDER_ID } from './identities';
import type { GameSettings, Gimmick } from '../rules/settings';
import { STARTING_COINS } from './http';
import { REGISTRATION_MODES, SERVER_INFO_LIMITS, type RegistrationMode } from './server-info';
import { checkChatText, checkLineText } from './text';

export { REGISTRATION_MODES, type RegistrationMode };
export const REGISTRATION_MODE_LABELS: Record<RegistrationMode, string> = {
  open: 'Open to everyone',
  invite: 'Invite codes only',
  closed: 'Closed',
};

// ----- table presets ---------------------------------------------------------------------------------------------

/** The variant of a table: its bidding option, or its gimmick when the option is GIMMICK. */
export type TableVariant = 'REG' | 'WHIZ' | 'MIRROR' | Gimmick;
/** A kind of table offered in Create Game: game mode + variant, e.g. `PARTNERS:REG`, `SOLO:BID 3`. */
export type TablePresetKey = `${'PARTNERS' | 'SOLO'}:${TableVariant}`;

const VARIANTS: readonly TableVariant[] = [
  'REG',
  'WHIZ',
  'MIRROR',
  'SUICIDE',
  '4 OR NIL',
  'BID 3',
  'BID HEARTS',
  'CRAZY ACES',
];

/** Every preset the rules allow (SUICIDE is PARTNERS only), in the Create Game dialog's order. */
export const TABLE_PRESETS: readonly TablePresetKey[] = (['PARTNERS', 'SOLO'] as const).flatMap((mode) =>
  VARIANTS.filter((v) => !(mode === 'SOLO' && v === 'SUICIDE')).map((v) => `${mode}:${v}` as TablePresetKey),
);

/** "Partners · REG", "Solo · BID 3" */
export function tablePresetLabel(key: TablePresetKey): string {
  const [mode, variant] = key.split(':');
  return `${mode === 'PARTNERS' ? 'Partners' : 'Solo'} · ${variant}`;
}

/** The preset of validated game settings. */
export function tablePresetOf(s: Pick<GameSettings, 'gameMode' | 'biddingOption' | 'gimmick'>): TablePresetKey {
  const variant: TableVariant = s.biddingOption === 'GIMMICK' ? (s.gimmick ?? 'SUICIDE') : s.biddingOption;
  return `${s.gameMode}:${variant}`;
}

/** `base` (e.g. the Create Game defaults) switched to a preset's mode and variant; the other settings are kept. */
export function settingsForPreset(key: TablePresetKey, base: GameSettings): GameSettings {
  const [mode, variant] = key.split(':') as [GameSettings['gameMode'], TableVariant];
  const plain = variant === 'REG' || variant === 'WHIZ' || variant === 'MIRROR';
  return {
    ...base,
    specialRules: { ...base.specialRules },
    gameMode: mode,
    biddingOption: plain ? variant : 'GIMMICK',
    gimmick: plain ? base.gimmick : variant,
  };
}

/** The refusal when Create Game asks for a preset the server does not offer (HTTP 400 / socket ack). */
export function presetNotOfferedMessage(key: TablePresetKey): string {
  return `This server does not offer ${tablePresetLabel(key)} tables`;
}

// ----- the settings ----------------------------------------------------------------------------------------------

export type AnnouncementLevel = 'info' | 'warning';

/** The banner shown to every client. `id` changes with each new text (a client may remember a dismissed one). */
export interface Announcement {
  id: string;
  text: string;
  level: AnnouncementLevel;
  /** ISO time it was set. */
  at: string;
}

/** Sign-in methods the host offers (a method also needs its server configuration, e.g. DISCORD_CLIENT_ID). */
export interface SignInsOffered {
  discord: boolean;
  /**
   * Issue #26: the OpenID Connect / GitHub providers by id (OIDC_PROVIDERS, GITHUB_*); a provider missing here is
   * offered. In `signInsConfigured`: the configured ids (all true).
   */
  sso?: Record<string, boolean>;
}

/** An `sso` map of SignInsOffered: at most 50 provider ids, each true or false. */
function isSsoOffered(v: unknown): v is Record<string, boolean> {
  if (!isObj(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= 50 && entries.every(([k, b]) => SSO_PROVIDER_ID.test(k) && typeof b === 'boolean');
}

export interface ServerSettings {
  registration: RegistrationMode;
  /** Coins granted to a new account (ledger transfer from the house). */
  startingCoins: number;
  signIns: SignInsOffered;
  /** Presets offered in Create Game; the create route refuses the others. Never empty. */
  tablePresets: TablePresetKey[];
  announcement: Announcement | null;
  /** Words and phrases masked in lobby and table chat (`filterChatWords`); a trailing `*` matches any ending. */
  chatFilter: string[];
  /** Distinct players muting one player within 24 h that auto-mute them in lobby chat (pending review). */
  autoMuteThreshold: number;
  /**
   * The community's public face (GET /api/server-info, issue #30). null = the environment's SERVER_NAME,
   * SERVER_DESCRIPTION, SERVER_ICON_URL. The icon is an absolute http(s) URL.
   */
  serverName: string | null;
  serverDescription: string | null;
  serverIcon: string | null;
  /** Issue #27: whether players may create sit-and-go tournaments, and the seat deadline of a match (no-show). */
  tournaments: TournamentSettings;
}

export interface TournamentSettings {
  playerSitAndGo: boolean;
  /** Seconds a match's players have to take their seats before a walkover (TOURNAMENT_NO_SHOW_RANGE). */
  noShowSeconds: number;
}

export const TOURNAMENT_NO_SHOW_RANGE = { min: 30, max: 900 } as const;

export const DEFAULT_SERVER_SETTINGS: Readonly<ServerSettings> = Object.freeze({
  registration: 'open',
  startingCoins: STARTING_COINS,
  signIns: { discord: true },
  tablePresets: [...TABLE_PRESETS],
  announcement: null,
  chatFilter: [],
  autoMuteThreshold: 3,
  serverName: null,
  serverDescription: null,
  serverIcon: null,
  tournaments: { playerSitAndGo: true, noShowSeconds: 120 },
}) as ServerSettings;

export const SERVER_SETTING_KEYS = Object.keys(DEFAULT_SERVER_SETTINGS) as (keyof ServerSettings)[];

export const STARTING_COINS_MAX = 1_000_000_000_000;
export const ANNOUNCEMENT_MAX = 300;
export const CHAT_FILTER_MAX_ENTRIES = 500;
export const CHAT_FILTER_ENTRY_MAX = 40;
export const AUTO_MUTE_THRESHOLD_RANGE = { min: 2, max: 50 } as const;
export const SERVER_NAME_MAX = SERVER_INFO_LIMITS.name;
export const SERVER_DESCRIPTION_MAX = SERVER_INFO_LIMITS.description;
export const SERVER_ICON_MAX = SERVER_INFO_LIMITS.icon;

/** The announcement as the admin writes it (the server gives it its id and time). */
export interface AnnouncementInput {
  text: string;
  level?: AnnouncementLevel;
}

/** The settable fields: every field optional; `announcement` as text + level (null removes the banner). */
export type ServerSettingsPatch = Partial<Omit<ServerSettings, 'announcement'>> & {
  announcement?: AnnouncementInput | null;
};

/** PUT /api/admin/settings */
export interface SettingsUpdateRequest {
  changes: ServerSettingsPatch;
  /** 1–STAFF_REASON_MAX characters. */
  reason: string;
}

/** GET/PUT /api/admin/settings */
export interface AdminSettingsView {
  settings: ServerSettings;
  /** Increases with every change. */
  version: number;
  updatedAt: string | null;
  updatedBy: { id: string; username: string } | null;
  /** Whether the server is configured for each sign-in (the setting only offers what is configured). */
  signInsConfigured: SignInsOffered;
}

/** GET /api/settings/public: what every client may know (no chat filter, no thresholds). */
export interface PublicServerSettings {
  serverName: string;
  serverDescription: string;
  serverIcon: string | null;
  registration: RegistrationMode;
  startingCoins: number;
  /** Offered AND configured. Password sign-in is always offered. */
  signIns: SignInsOffered;
  tablePresets: TablePresetKey[];
  announcement: Announcement | null;
  /**
   * Issue #27: whether players may create sit-and-go tournaments (`tournaments.playerSitAndGo`; the lobby hides
   * "Create sit-and-go" when not). Absent from servers older than tournaments: the client offers it (the server decides).
   */
  tournaments?: { playerSitAndGo: boolean };
}

export type SettingsPatchCheck = { ok: true; patch: ServerSettingsPatch } | { ok: false; message: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const HTTP_URL = /^https?:\/\/[^\s/?#@\\]+(\/\S*)?$/i;

/**
 * Validates a settings change from any source; unknown keys are refused (a typo never silently does nothing).
 * Returns the normalised patch (trimmed texts, de-duplicated lists) or the first problem.
 */
export function checkSettingsPatch(input: unknown): SettingsPatchCheck {
  if (!isObj(input)) return { ok: false, message: 'changes must be an object' };
  const out: ServerSettingsPatch = {};
  for (const [key, v] of Object.entries(input)) {
    switch (key) {
      case 'registration':
        if (!(REGISTRATION_MODES as readonly unknown[]).includes(v))
          return { ok: false, message: 'registration must be open, invite or closed' };
        out.registration = v as RegistrationMode;
        break;
      case 'startingCoins':
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > STARTING_COINS_MAX)
          return { ok: false, message: `startingCoins must be a whole number from 0 to ${STARTING_COINS_MAX}` };
        out.startingCoins = v;
        break;
      case 'signIns':
        if (
          !isObj(v) ||
          Object.keys(v).some((k) => k !== 'discord' && k !== 'sso') ||
          typeof v.discord !== 'boolean' ||
          (v.sso !== undefined && !isSsoOffered(v.sso))
        )
          return { ok: false, message: 'signIns must be { discord: boolean, sso?: { <provider id>: boolean } }' };
        out.signIns = isSsoOffered(v.sso) ? { discord: v.discord, sso: { ...v.sso } } : { discord: v.discord };
        break;
      case 'tablePresets': {
        if (!Array.isArray(v) || v.length === 0) return { ok: false, message: 'Offer at least one table preset' };
        const bad = v.find((p) => !(TABLE_PRESETS as readonly unknown[]).includes(p));
        if (bad !== undefined)
          return { ok: false, message: `Unknown table preset ${JSON.stringify(bad).slice(0, 40)}` };
        out.tablePresets = TABLE_PRESETS.filter((p) => v.includes(p));
        break;
      }
      case 'announcement': {
        if (v === null) {
          out.announcement = null;
          break;
        }
        if (!isObj(v) || typeof v.text !== 'string')
          return { ok: false, message: 'announcement must be { text, level } or null' };
        const t = checkLineText(v.text, 'The announcement');
        if (!t.ok) return { ok: false, message: t.message };
        const text = t.text.trim();
        if (text.length < 1 || text.length > ANNOUNCEMENT_MAX)
          return { ok: false, message: `The announcement must be 1–${ANNOUNCEMENT_MAX} characters (null removes it)` };
        const level = v.level ?? 'info';
        if (level !== 'info' && level !== 'warning')
          return { ok: false, message: 'announcement level must be info or warning' };
        out.announcement = { text, level };
        break;
      }
      case 'chatFilter': {
        if (!Array.isArray(v)) return { ok: false, message: 'chatFilter must be a list of words' };
        const words: string[] = [];
        for (const w of v) {
          if (typeof w !== 'string') return { ok: false, message: 'chatFilter must be a list of words' };
          const t = checkLineText(w, 'A filtered word');
          if (!t.ok) return { ok: false, message: t.message };
          const word = t.text.trim().replace(/\s+/g, ' ');
          if (!word) continue;
          if (word.length > CHAT_FILTER_ENTRY_MAX || !/[\p{L}\p{N}]/u.test(word))
            return {
              ok: false,
              message: `A filtered word must have letters or digits and at most ${CHAT_FILTER_ENTRY_MAX} characters`,
            };
          if (!words.some((x) => x.toLowerCase() === word.toLowerCase())) words.push(word);
        }
        if (words.length > CHAT_FILTER_MAX_ENTRIES)
          return { ok: false, message: `At most ${CHAT_FILTER_MAX_ENTRIES} filtered words` };
        out.chatFilter = words;
        break;
      }
      case 'autoMuteThreshold': {
        const { min, max } = AUTO_MUTE_THRESHOLD_RANGE;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
          return { ok: false, message: `autoMuteThreshold must be a whole number from ${min} to ${max}` };
        out.autoMuteThreshold = v;
        break;
      }
      case 'serverName': {
        if (v === null) {
          out.serverName = null;
          break;
        }
        const t = checkLineText(v, 'The server name');
        if (!t.ok) return { ok: false, message: t.message };
        const name = t.text.trim();
        if (name.length < 1 || name.length > SERVER_NAME_MAX)
          return { ok: false, message: `The server name must be 1–${SERVER_NAME_MAX} characters` };
        out.serverName = name;
        break;
      }
      case 'serverDescription': {
        if (v === null) {
          out.serverDescription = null;
          break;
        }
        const t = checkChatText(v, 'The server description');
        if (!t.ok) return { ok: false, message: t.message };
        const d = t.text.trim();
        if (d.length > SERVER_DESCRIPTION_MAX)
          return { ok: false, message: `The server description must be at most ${SERVER_DESCRIPTION_MAX} characters` };
        out.serverDescription = d;
        break;
      }
      case 'serverIcon':
        if (v !== null && (typeof v !== 'string' || v.length > SERVER_ICON_MAX || !HTTP_URL.test(v)))
          return {
            ok: false,
            message: `serverIcon must be null or an absolute http(s) URL of at most ${SERVER_ICON_MAX} characters`,
          };
        out.serverIcon = v as string | null;
        break;
      case 'tournaments': {
        const { min, max } = TOURNAMENT_NO_SHOW_RANGE;
        if (
          !isObj(v) ||
          Object.keys(v).some((k) => k !== 'playerSitAndGo' && k !== 'noShowSeconds') ||
          typeof v.playerSitAndGo !== 'boolean' ||
          typeof v.noShowSeconds !== 'number' ||
          !Number.isInteger(v.noShowSeconds) ||
          v.noShowSeconds < min ||
          v.noShowSeconds > max
        )
          return {
            ok: false,
            message: `tournaments must be { playerSitAndGo: boolean, noShowSeconds: ${min}–${max} }`,
          };
        out.tournaments = { playerSitAndGo: v.playerSitAndGo, noShowSeconds: v.noShowSeconds };
        break;
      }
      default:
        return { ok: false, message: `Unknown setting ${JSON.stringify(key).slice(0, 60)}` };
    }
  }
  if (Object.keys(out).length === 0) return { ok: false, message: 'Nothing to change' };
  return { ok: true, patch: out };
}

/**
 * Stored settings merged over the defaults, field by field: a field that is missing or no longer valid (an older
 * server, a removed preset) takes its default, so the server always runs with complete, valid settings.
 */
export function completeSettings(stored: unknown): ServerSettings {
  const s: ServerSettings = {
    ...DEFAULT_SERVER_SETTINGS,
    tablePresets: [...DEFAULT_SERVER_SETTINGS.tablePresets],
    tournaments: { ...DEFAULT_SERVER_SETTINGS.tournaments },
  };
  if (!isObj(stored)) return s;
  for (const key of SERVER_SETTING_KEYS) {
    if (!(key in stored)) continue;
    if (key === 'announcement') {
      const a = stored.announcement;
      if (a === null) s.announcement = null;
      else if (isObj(a) && typeof a.id === 'string' && typeof a.text === 'string' && typeof a.at === 'string')
        s.announcement = { id: a.id, text: a.text, level: a.level === 'warning' ? 'warning' : 'info', at: a.at };
      continue;
    }
    const r = checkSettingsPatch({ [key]: stored[key] });
    if (r.ok) Object.assign(s, r.patch);
  }
  return s;
}

/** The environment's server identity (SERVER_NAME, SERVER_DESCRIPTION, SERVER_ICON_URL): used where a setting is null. */
export interface ServerIdentityDefaults {
  name: string;
  description: string;
  iconUrl: string | null;
}

/** What GET /api/settings/public answers, given what the server is configured for. */
export function publicSettings(
  s: ServerSettings,
  configured: SignInsOffered,
  identity: ServerIdentityDefaults,
): PublicServerSettings {
  return {
    serverName: s.serverName ?? identity.name,
    serverDescription: s.serverDescription ?? identity.description,
    serverIcon: s.serverIcon ?? identity.iconUrl,
    registration: s.registration,
    startingCoins: s.startingCoins,
    signIns: {
      discord: s.signIns.discord && configured.discord,
      // issue #26: each configured OIDC / GitHub provider, unless the host switched it off
      ...(configured.sso
        ? { sso: Object.fromEntries(Object.keys(configured.sso).map((id) => [id, s.signIns.sso?.[id] !== false])) }
        : {}),
    },
    tablePresets: [...s.tablePresets],
    announcement: s.announcement,
    tournaments: { playerSitAndGo: s.tournaments.playerSitAndGo },
  };
}

// ----- the chat word filter --------------------------------------------------------------------------------------

/** Look-alike digits and signs read as letters when matching filtered words (length-preserving). */
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'i',
};

interface Folded {
  text: string;
  /** Per folded UTF-16 unit: [start, end) in the original text. */
  map: [number, number][];
}

function fold(text: string): Folded {
  let out = '';
  const map: [number, number][] = [];
  let i = 0;
  for (const ch of text) {
    let f = ch.normalize('NFKC').toLowerCase();
    f = [...f].map((c) => LEET[c] ?? c).join('');
    f = f.normalize('NFD').replace(/\p{M}/gu, '');
    for (let k = 0; k < f.length; k++) map.push([i, i + ch.length]);
    out += f;
    i += ch.length;
  }
  return { text: out, map };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A compiled filter (compile once per settings change; `filterChatWords` accepts either). */
export interface ChatWordFilter {
  re: RegExp | null;
}

export function compileChatFilter(words: readonly string[]): ChatWordFilter {
  const parts = words
    .map((w) => {
      const prefix = w.endsWith('*');
      const core = fold(prefix ? w.slice(0, -1) : w).text.trim();
      if (!core) return null;
      // spaces in a phrase match any run of spaces; a word is matched whole (or as a prefix with `*`)
      const body = core.split(/\s+/).map(escapeRe).join('\\s+');
      return prefix ? `${body}[\\p{L}\\p{N}]*` : body;
    })
    .filter((p): p is string => !!p)
    .sort((a, b) => b.length - a.length);
  if (parts.length === 0) return { re: null };
  return { re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('|')})(?![\\p{L}\\p{N}])`, 'gu') };
}

/**
 * Masks every filtered word or phrase in a chat text (case-insensitive, accents and look-alike digits folded:
 * "Fr3ak" matches "freak") with `*`, one per character; everything else is kept as written. Run after the text
 * rules (`parseChatInput`), on the server, before the line is stored or sent.
 */
export function filterChatWords(
  text: string,
  filter: ChatWordFilter | readonly string[],
): { text: string; masked: number } {
  const { re } = Array.isArray(filter) ? compileChatFilter(filter as readonly string[]) : (filter as ChatWordFilter);
  if (!re) return { text, masked: 0 };
  const f = fold(text);
  const hide = new Uint8Array(text.length);
  let masked = 0;
  re.lastIndex = 0;
  for (const m of f.text.matchAll(re)) {
    if (m[0].length === 0) continue;
    masked++;
    const from = f.map[m.index]![0];
    const to = f.map[m.index + m[0].length - 1]![1];
    for (let k = from; k < to; k++) hide[k] = 1;
  }
  if (!masked) return { text, masked: 0 };
  // rebuild by code point: a masked code point becomes one `*`, whitespace inside a phrase is kept
  let out = '';
  let i = 0;
  for (const ch of text) {
    out += hide[i] && !/\s/u.test(ch) ? '*' : ch;
    i += ch.length;
  }
  return { text: out, masked };
}

// ----- invite codes ----------------------------------------------------------------------------------------------

export interface InviteCode {
  code: string;
  createdAt: string;
  createdBy: { id: string; username: string } | null;
  note: string | null;
  /** null = unlimited */
  maxUses: number | null;
  uses: number;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Usable now: not revoked, not expired, uses left. */
  active: boolean;
}

/** POST /api/admin/invite-codes */
export interface InviteCodeCreateRequest {
  /** 1–INVITE_CODE_MAX_USES, or null for unlimited (default 1). */
  maxUses?: number | null;
  /** Days until it expires (1–365), or null for never (default). */
  expiresInDays?: number | null;
  note?: string | null;
  reason: string;
}

export const INVITE_CODE_MAX_USES = 10_000;
export const INVITE_CODE_NOTE_MAX = 100;
/** Codes are 12 characters of A–Z and 2–9 without look-alikes (no 0/O, 1/I/L), shown in groups of four. */
export const INVITE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{12}$/;

/** What a person types ("abcd-efgh-jkmn", spaces, lower case) → the stored form, or null when it cannot be a code. */
export function normalizeInviteCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const c = input.toUpperCase().replace(/[\s-]/g, '');
  return INVITE_CODE_PATTERN.test(c) ? c : null;
}

/** "ABCD-EFGH-JKMN" */
export function formatInviteCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** Registration refusals (HTTP 403 `{ message }`). */
export const REGISTRATION_MESSAGES = {
  closed: 'Registration is closed on this server',
  inviteRequired: 'Registration on this server needs an invite code',
  inviteInvalid: 'This invite code is not valid: it may be mistyped, used up, expired or revoked',
  signInNotOffered: 'This sign-in method is not offered on this server',
} as const;
