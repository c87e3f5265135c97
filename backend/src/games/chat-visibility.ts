/**
 * Blocks in the game chat (spec §7 "Block": "You will no longer see their chat messages"), as in the lobby
 * chat: a recipient never receives a message from a player they block, neither live (`chat_message`) nor in
 * the table's chat history (`game_update.chat`, GET /api/games/:id). System messages are always shown.
 * Filtering happens on the server, per recipient, where the payloads are built.
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CHAT_HIDES_SQL } from '../reports/chat-hides';

/** Senders each recipient blocks (recipient id → blocked ids); a recipient missing from the map blocks nobody. */
export type BlockedSenders = ReadonlyMap<string, ReadonlySet<string>>;

/** Whether `recipientId` may see a chat message from `senderId`. */
export function chatVisibleTo(senderId: string, recipientId: string, blocked: BlockedSenders): boolean {
  return !(blocked.get(recipientId)?.has(senderId) ?? false);
}

/** The messages of `chat` that `recipientId` may see (same order). */
export function visibleChat<M extends { userId: string }>(
  chat: readonly M[],
  recipientId: string,
  blocked: BlockedSenders,
): M[] {
  const mine = blocked.get(recipientId);
  return mine && mine.size ? chat.filter((m) => !mine.has(m.userId)) : chat.slice();
}

/** The sender id of the table's system messages (never blocked). */
export const SYSTEM_SENDER = 'system';

/** Reads the blocks and player mutes (issue #25) of the recipients of one emission (one indexed query). */
@Injectable()
export class ChatBlocks {
  constructor(private readonly ds: DataSource) {}

  async blockedBy(recipientIds: readonly string[]): Promise<BlockedSenders> {
    const out = new Map<string, Set<string>>();
    const ids = recipientIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    if (!ids.length) return out;
    const rows: { user_id: string; target_id: string }[] = await this.ds.query(
      `SELECT user_id, target_id FROM ${CHAT_HIDES_SQL} h WHERE user_id = ANY($1::uuid[])`,
      [ids],
    );
    for (const r of rows) {
      const set = out.get(r.user_id) ?? new Set<string>();
      set.add(r.target_id);
      out.set(r.user_id, set);
    }
    return out;
  }

  /**
   * The messages of `chat` that `viewerId` may see. The blocks are read only when the chat holds a message of
   * another player (system messages and the viewer's own are always shown): a reconnecting spectator of a table
   * whose chat is only system lines costs no query.
   */
  async visibleTo<M extends { userId: string }>(chat: readonly M[], viewerId: string): Promise<M[]> {
    if (!chat.some((m) => m.userId !== SYSTEM_SENDER && m.userId !== viewerId)) return chat.slice();
    return visibleChat(chat, viewerId, await this.blockedBy([viewerId]));
  }
}
