import { checkChatText } from './text';

/** Lobby chat (spec §3 Lobby chat message). */
export interface ChatMessage {
  id: string;
  userId: string;
  username: string;
  /** Same as username (the client reads either). */
  userName: string;
  message: string;
  /** ISO 8601. */
  timestamp: string;
}

export const CHAT_MAX_LENGTH = 500;
export const CHAT_HISTORY_SIZE = 100;
/** Rate limit: at most CHAT_RATE_MAX messages per CHAT_RATE_WINDOW_MS per user. */
export const CHAT_RATE_MAX = 3;
export const CHAT_RATE_WINDOW_MS = 1000;

/** What a client may send as lobby_chat_message: the text, or an object carrying it. */
export type LobbyChatInput = string | { message: string };

/**
 * Trimmed text of a chat input, or an error message. Pure, shared by client and server (lobby and table chat):
 * the text rules of `checkChatText` (text.ts) apply — zero-width characters stripped; controls other than
 * tab/newline, lone surrogates and bidi overrides refused.
 */
export function parseChatInput(input: unknown): { ok: true; text: string } | { ok: false; message: string } {
  const raw =
    typeof input === 'string'
      ? input
      : input && typeof input === 'object' && typeof (input as { message?: unknown }).message === 'string'
        ? (input as { message: string }).message
        : null;
  if (raw === null) return { ok: false, message: 'A chat message must be text' };
  const checked = checkChatText(raw);
  if (!checked.ok) return { ok: false, message: checked.message };
  const text = checked.text.trim();
  if (!text) return { ok: false, message: 'A chat message cannot be empty' };
  if (text.length > CHAT_MAX_LENGTH)
    return { ok: false, message: `A chat message can have at most ${CHAT_MAX_LENGTH} characters` };
  return { ok: true, text };
}
