/**
 * The socket protocol at runtime (issue #29): the list of every client → server event.
 */
import type { ClientEventName } from './socket';

/**
 * Every event of `ClientToServerEvents`. `satisfies Record<ClientEventName, true>`: an event added to the map
 * without an entry here (or an entry the map does not have) fails the typecheck; tests walk this list.
 */
const CLIENT_EVENT_SET = {
  authenticate: true,
  lobby_chat_message: true,
  chat_message: true,
  join_game: true,
  join_game_as_spectator: true,
  create_game: true,
  start_game: true,
  make_bid: true,
  play_card: true,
  claim: true,
  quick_chat: true,
  start_new_hand: true,
  play_again: true,
  leave_game: true,
  fill_seat_with_bot: true,
  setup_trick_completion_delay: true,
  reveal_cards: true,
  invite_bot: true,
  remove_bot: true,
  invite_player: true,
  decline_invitation: true,
  watch_lobby: true,
  unwatch_lobby: true,
  quickplay_join: true,
  quickplay_leave: true,
  quickplay_status: true,
  quickplay_bots: true,
  play_bots_now: true,
  partner_invite: true,
  partner_accept: true,
  partner_decline: true,
  watch_tournament: true,
  unwatch_tournament: true,
} as const satisfies Record<ClientEventName, true>;

export const CLIENT_EVENTS: readonly ClientEventName[] = Object.keys(CLIENT_EVENT_SET) as ClientEventName[];
