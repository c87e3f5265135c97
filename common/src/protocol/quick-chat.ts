/**
 * Quick chat (issue #31): preset phrases and emotes a player sends with one click (`quick_chat { gameId, id }`).
 * The server posts the preset's text as a table chat line marked `quick: id` — rate-limited with typed chat,
 * hidden from players who block the sender like any line — and clients whose `quickChat` option is off hide it.
 */

export interface QuickChatPreset {
  id: string;
  text: string;
  kind: 'phrase' | 'emote';
  /** Accessible name of an emote. */
  label?: string;
}

export const QUICK_CHAT: readonly QuickChatPreset[] = Object.freeze([
  { id: 'good-luck', text: 'Good luck!', kind: 'phrase' },
  { id: 'nice-play', text: 'Nice play!', kind: 'phrase' },
  { id: 'well-bid', text: 'Well bid!', kind: 'phrase' },
  { id: 'thanks', text: 'Thanks!', kind: 'phrase' },
  { id: 'sorry', text: 'Sorry, partner', kind: 'phrase' },
  { id: 'good-game', text: 'Good game!', kind: 'phrase' },
  { id: 'thumbs-up', text: '👍', kind: 'emote', label: 'Thumbs up' },
  { id: 'laugh', text: '😂', kind: 'emote', label: 'Laughing' },
  { id: 'wow', text: '😮', kind: 'emote', label: 'Surprised' },
  { id: 'sad', text: '😢', kind: 'emote', label: 'Sad' },
] as QuickChatPreset[]);

export const QUICK_CHAT_ERROR = 'Unknown quick chat message';

/** The preset with this id, or null. */
export function quickChatPreset(id: unknown): QuickChatPreset | null {
  return (typeof id === 'string' && QUICK_CHAT.find((p) => p.id === id)) || null;
}

/** `quick_chat` payload (client → server). */
export interface QuickChatInput {
  gameId: string;
  id: string;
  actionId?: string;
}

/** `claim` payload (client → server), issue #31: claim the remaining tricks. */
export interface ClaimPayload {
  gameId: string;
  actionId?: string;
}
