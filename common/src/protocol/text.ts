/**
 * Text rules (issue #24): every text a client sends that reaches storage is checked here, once, at the boundary.
 * Pure, no dependencies; shared by the client (to say no before sending) and the server (the authority).
 *
 * - chat text: no C0 controls except tab and newline (CR LF becomes LF), no DEL or C1 controls, no lone
 *   surrogates, no bidi overrides / embeddings / isolates (U+202A–U+202E, U+2066–U+2069); zero-width characters
 *   (U+200B–U+200D, U+2060, U+FEFF) are stripped.
 * - single-line text (table names, reasons, future short fields): the same without tab/newline (no controls at all).
 * - action ids: printable ASCII only (U+0020–U+007E).
 * - names: NFKC-normalized and zero-width stripped; compared through `nameKey`, a look-alike key, so that names that
 *   read the same (`admin1`, `AdminI`, `adm1n1`) collide.
 */

/** Why a text was refused (one code per rule). */
export const TextRefusal = {
  NOT_TEXT: 'not_text',
  CONTROL: 'control',
  LONE_SURROGATE: 'lone_surrogate',
  BIDI: 'bidi',
  NOT_PRINTABLE_ASCII: 'not_printable_ascii',
} as const;
export type TextRefusal = (typeof TextRefusal)[keyof typeof TextRefusal];

/** The message of each refusal, for a field called `label` ("A chat message", "actionId", "username"…). */
export const TEXT_REFUSAL_MESSAGES: Record<TextRefusal, (label: string) => string> = {
  not_text: (label) => `${label} must be text`,
  control: (label) => `${label} cannot contain control characters`,
  lone_surrogate: (label) => `${label} contains a broken character (a lone UTF-16 surrogate)`,
  bidi: (label) => `${label} cannot contain text-direction override characters`,
  not_printable_ascii: (label) => `${label} may only contain printable ASCII characters`,
};

export type TextCheck = { ok: true; text: string } | { ok: false; code: TextRefusal; message: string };

/** Zero-width characters: ZWSP, ZWNJ, ZWJ, word joiner, BOM / ZWNBSP. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Bidi embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** C0 controls but tab and newline, DEL, C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CHAT_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Every C0 control, DEL, C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

export function stripZeroWidth(text: string): string {
  return text.replace(ZERO_WIDTH, '');
}

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function refuse(code: TextRefusal, label: string): TextCheck {
  return { ok: false, code, message: TEXT_REFUSAL_MESSAGES[code](label) };
}

function check(text: string, label: string, control: RegExp): TextCheck {
  if (hasLoneSurrogate(text)) return refuse(TextRefusal.LONE_SURROGATE, label);
  if (BIDI.test(text)) return refuse(TextRefusal.BIDI, label);
  if (control.test(text)) return refuse(TextRefusal.CONTROL, label);
  return { ok: true, text };
}

/** Chat text: CR LF → LF, zero-width stripped, then refused if it holds a lone surrogate, a bidi control or a control character other than tab/newline. Not trimmed. */
export function checkChatText(input: unknown, label = 'A chat message'): TextCheck {
  if (typeof input !== 'string') return refuse(TextRefusal.NOT_TEXT, label);
  return check(stripZeroWidth(input.replace(/\r\n/g, '\n')), label, CHAT_CONTROL);
}

/** A short single-line text (table name, reason…): zero-width stripped and trimmed; no controls at all. */
export function checkLineText(input: unknown, label: string): TextCheck {
  if (typeof input !== 'string') return refuse(TextRefusal.NOT_TEXT, label);
  return check(stripZeroWidth(input).trim(), label, ANY_CONTROL);
}

/**
 * A text stored exactly as sent (an e-mail address): nothing is stripped, so a zero-width character is refused
 * as well (as a control character).
 */
export function checkExactText(input: unknown, label: string): TextCheck {
  if (typeof input !== 'string') return refuse(TextRefusal.NOT_TEXT, label);
  const r = check(input, label, ANY_CONTROL);
  if (r.ok && stripZeroWidth(input) !== input) return refuse(TextRefusal.CONTROL, label);
  return r;
}

/** A client action id: printable ASCII only. */
export function checkActionId(input: string, label = 'actionId'): TextCheck {
  return PRINTABLE_ASCII.test(input) ? { ok: true, text: input } : refuse(TextRefusal.NOT_PRINTABLE_ASCII, label);
}

/** A name as stored: zero-width characters stripped, NFKC-normalized (fullwidth `ａｄｍｉｎ` → `admin`), trimmed. */
export function normalizeName(name: string): string {
  return stripZeroWidth(name).normalize('NFKC').trim();
}

/**
 * Look-alike key of a name: two names with the same key read the same and cannot both exist. The normalized name,
 * lower-cased, then (in this order):
 * - `rn` → `m`, `vv` → `w` (two letters that read as one);
 * - `0` → `o`; `1`, `i`, `|` and `l` → `l`;
 * - `-` → `_`.
 * Kept small on purpose: every rule here refuses names somebody might want.
 */
export function nameKey(name: string): string {
  return normalizeName(name)
    .toLowerCase()
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/0/g, 'o')
    .replace(/[1i|]/g, 'l')
    .replace(/-/g, '_');
}
