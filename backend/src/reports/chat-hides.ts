/**
 * Whose chat a player does not see (issues 15 and #25): the players they block (`user_relations` kind 'block')
 * and the players they mute (`player_mutes`). One place for the lobby history, the live lobby broadcast and the
 * table chat (games/chat-visibility.ts), so a mute hides exactly what a block hides.
 *
 * A subquery of (user_id, target_id) pairs: `user_id` does not see `target_id`'s chat lines.
 */
export const CHAT_HIDES_SQL = `(SELECT user_id, target_id FROM user_relations WHERE kind = 'block'
  UNION SELECT user_id, target_id FROM player_mutes)`;
