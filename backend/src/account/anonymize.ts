/**
 * Rewrites a deleted player's name inside stored JSON documents (table snapshots, event deltas, game records,
 * report contexts): pure, no I/O.
 *
 * - An object that IS the player (its `userId` / `user_id` / `id` is the player's id) gets the neutral name in
 *   every name field, whatever it held (an older name before a rename included); `namesOf` collects those.
 * - A name field (`username`, `userName`, `name`, `fromName`, …) that equals one of the player's names (case
 *   insensitive) gets the neutral name, wherever it is. The player's own objects lose their `avatar` (null).
 * - A chat line (`message`: a system line "alice joined the game.", or anyone's "gg alice") gets the player's
 *   names replaced as whole words (a name that is also a common word is replaced in those lines too).
 * Nothing else changes: engine state and settings (their strings are enum values) are left as stored.
 */

const ID_KEYS = ['userId', 'user_id', 'id'] as const;
const NAME_KEYS = new Set([
  'username',
  'userName',
  'name',
  'fromName',
  'targetName',
  'reporterName',
  'byName',
  'assigneeName',
  'hostName',
  'ownerName',
]);
/** Subtrees that never hold a name: the rules engine state and settings (their strings are enum values). */
const SKIP_KEYS = new Set(['engine', 'settings', 'actions', 'final_state', 'finalState']);
/** Characters a username may hold (USERNAME_PATTERN): a name is a whole word when no such character touches it. */
const NAME_CHAR = 'A-Za-z0-9_\\-';

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlayer = (o: Record<string, Json>, userId: string) => ID_KEYS.some((k) => o[k] === userId);

/** The names the document gives the player (name fields of the objects that carry the player's id). */
export function namesOf(doc: Json, userId: string, out = new Set<string>()): Set<string> {
  if (Array.isArray(doc)) for (const v of doc) namesOf(v, userId, out);
  else if (isObject(doc)) {
    const me = isPlayer(doc, userId);
    for (const [k, v] of Object.entries(doc)) {
      if (SKIP_KEYS.has(k)) continue;
      if (me && NAME_KEYS.has(k) && typeof v === 'string' && v) out.add(v);
      else namesOf(v, userId, out);
    }
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole-word, case-insensitive matcher of any of `names` (null when there is none). */
export function wordMatcher(names: Iterable<string>): RegExp | null {
  const list = [...new Set([...names].filter(Boolean))].sort((a, b) => b.length - a.length).map(escapeRe);
  return list.length ? new RegExp(`(?<![${NAME_CHAR}])(?:${list.join('|')})(?![${NAME_CHAR}])`, 'gi') : null;
}

export interface Anonymization {
  userId: string;
  /** Every name the player had (lower case comparisons). */
  names: ReadonlySet<string>;
  neutral: string;
}

/** The document with the player's name replaced (a new value; `changed` tells whether anything differs). */
export function anonymizeDoc(doc: Json, a: Anonymization): { value: Json; changed: boolean } {
  const lower = new Set([...a.names].map((n) => n.toLowerCase()));
  const words = wordMatcher(a.names);
  let changed = false;
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const me = isPlayer(v, a.userId);
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) {
      if (SKIP_KEYS.has(k)) out[k] = x;
      else if (me && k === 'avatar' && x !== null) {
        changed = true;
        out[k] = null;
      } else if (NAME_KEYS.has(k) && typeof x === 'string' && (me || lower.has(x.toLowerCase()))) {
        if (x !== a.neutral) changed = true;
        out[k] = a.neutral;
      } else if (k === 'message' && typeof x === 'string' && words) {
        const next = x.replace(words, a.neutral);
        if (next !== x) changed = true;
        out[k] = next;
      } else out[k] = walk(x);
    }
    return out;
  };
  const value = walk(doc);
  return { value, changed };
}
