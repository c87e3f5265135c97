import { Injectable, Optional } from '@nestjs/common';
import {
  CHAT_HISTORY_SIZE,
  CHAT_RATE_MAX,
  CHAT_RATE_WINDOW_MS,
  ChatMessage,
  filterChatWords,
  muteMessage,
  parseChatInput,
} from '@spades/common';
import { DataSource } from 'typeorm';
import { SanctionsService } from '../moderation/sanctions.service';
import { SettingsService } from '../settings/settings.service';
import { RATE_MESSAGES, RateLimit, RateLimiter } from '../realtime/rate.limiter';

export class ChatRejected extends Error {}

/** Lobby chat's own bucket of the per-user chat limit (table chat has the same limit in its own bucket). */
export const LOBBY_CHAT_LIMIT: RateLimit = { scope: 'lobby-chat', max: CHAT_RATE_MAX, windowMs: CHAT_RATE_WINDOW_MS };

/**
 * Lobby chat: validation (trim, non-empty, ≤ 500), per-user rate limit (3 per second, RateLimiter: in memory on a
 * single node, in Redis in cluster mode), storage, history.
 */
@Injectable()
export class LobbyChatService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly limiter: RateLimiter,
    /** Issue #25: the host's chat word filter. */
    @Optional() private readonly settings?: SettingsService,
    /** Issue #25: a muted player's message is refused with the reason and the end. */
    @Optional() private readonly sanctions?: SanctionsService,
  ) {}

  /** Validates, rate-limits and stores a message; throws ChatRejected with a user-facing message. */
  async post(userId: string, input: unknown, now = Date.now()): Promise<ChatMessage> {
    const parsed = parseChatInput(input);
    if (!parsed.ok) throw new ChatRejected(parsed.message);
    if (this.settings) parsed.text = filterChatWords(parsed.text, this.settings.chatFilter()).text;
    const mute = await this.sanctions?.muteFor(userId, 'lobby');
    if (mute) throw new ChatRejected(muteMessage(mute));
    if (!(await this.limiter.admit(LOBBY_CHAT_LIMIT, userId, now))) throw new ChatRejected(RATE_MESSAGES.chatTooFast);
    const rows: { id: string; username: string; created_at: Date }[] = await this.dataSource.query(
      `INSERT INTO lobby_chat_messages (user_id, username, message)
       SELECT id, username, $2 FROM users WHERE id = $1
       RETURNING id, username, created_at`,
      [userId, parsed.text],
    );
    if (!rows.length) throw new ChatRejected('Unknown user');
    return toMessage({ ...rows[0], user_id: userId, message: parsed.text });
  }

  /**
   * The last 100 messages `viewerId` may see, oldest first: senders the viewer blocks or mutes (issue #25) are
   * filtered IN the query, so a viewer who blocks chatty players still gets 100 messages (when that many exist).
   */
  async history(viewerId: string): Promise<ChatMessage[]> {
    const rows: { id: string; user_id: string; username: string; message: string; created_at: Date }[] =
      await this.dataSource.query(
        `SELECT m.id, m.user_id, m.username, m.message, m.created_at FROM lobby_chat_messages m
          WHERE NOT EXISTS (SELECT 1 FROM user_relations r
                             WHERE r.user_id = $1 AND r.target_id = m.user_id AND r.kind = 'block')
            AND NOT EXISTS (SELECT 1 FROM player_mutes p WHERE p.user_id = $1 AND p.target_id = m.user_id)
          ORDER BY m.created_at DESC, m.id DESC LIMIT ${CHAT_HISTORY_SIZE}`,
        [viewerId],
      );
    return rows.reverse().map(toMessage);
  }
}

function toMessage(r: {
  id: string;
  user_id: string;
  username: string;
  message: string;
  created_at: Date;
}): ChatMessage {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    userName: r.username,
    message: r.message,
    timestamp: new Date(r.created_at).toISOString(),
  };
}
