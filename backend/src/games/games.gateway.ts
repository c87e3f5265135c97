/**
 * Socket handlers of the game events (spec §7). The socket's identity (`socket.data.userId`) is set by the
 * platform's shared socket authentication; any userId/requesterId in a payload must match it or is ignored.
 * Every handler answers through the acknowledgement ({ok:true,…} | {ok:false,message}) and, on refusal, also
 * emits `error { message, event }` to the calling socket; a refused action changes nothing.
 */
import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { WireError, type ClientEventName, type ClientPayload } from '@spades/common';
import { reportUnexpected } from '../common/error-ref';
import { InvalidPayload, NoPayloadInput, parsePayload } from '../common/payload';
import { LOBBY_LIST_FULL_ROOM, LOBBY_VIEW_ROOM, RealtimeService, type AppSocket } from '../realtime/realtime.service';
import { GamesService } from './games.service';
import { ParticipantsService } from './participants.service';
import { isSpectator, TableError } from './table';
import { isMember } from './visibility';
import { BotSeatInput, checkRequester } from './bot-seat.input';
import { CreateGameInput } from './create-game.input';
import { GameIdInput, TableActionInput, WatchLobbyInput } from './game-id.input';
import { InvitePlayerInput, JoinGameInput, SpectateInput } from './join-game.input';
import { ChatMessageInput, chatText, MakeBidInput, PlayCardInput, QuickChatInput } from './table-action.input';

type Input<T> = new () => T;

@WebSocketGateway()
export class GamesGateway {
  private readonly log = new Logger('GamesGateway');

  constructor(
    private readonly games: GamesService,
    private readonly people: ParticipantsService,
    private readonly realtime: RealtimeService,
  ) {}

  /**
   * Every handler: the payload checked against its DTO (`InvalidPayload` before anything runs), the caller
   * signed in, then the command; the answer is the ack and, on refusal, also `error { message, event, code? }`.
   */
  private async run<T extends object>(
    client: AppSocket,
    event: ClientEventName,
    dto: Input<T>,
    data: unknown,
    fn: (userId: string, input: T) => Promise<unknown>,
  ): Promise<unknown> {
    try {
      const userId = client.data?.userId as string | undefined;
      if (!userId) throw new TableError('Not authenticated', 401);
      const input = parsePayload(dto, data);
      const result = await fn(userId, input);
      return { ...(result && typeof result === 'object' && !Array.isArray(result) ? result : {}), ok: true };
    } catch (e) {
      // a refusal says why; anything else (a storage error, a bug) is logged with a reference the client gets instead
      const message =
        e instanceof TableError || isHttpError(e) ? messageOf(e as Error) : reportUnexpected(this.log, event, e);
      const code =
        e instanceof TableError ? e.code : e instanceof InvalidPayload ? WireError.INVALID_PAYLOAD : undefined;
      client.emit('error', { message, event, ...(code ? { code } : {}) });
      return { ok: false, message, ...(code ? { code } : {}) };
    }
  }

  @SubscribeMessage('create_game')
  createGame(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'create_game'>) {
    return this.run(c, 'create_game', CreateGameInput, data, async (userId, p) => {
      const view = await this.games.create(p.settings, await this.people.get(userId), { private: p.private === true });
      c.emit('game_update', view);
      return { gameId: view.id };
    });
  }

  /**
   * Seated or watching: re-subscribe and get the exact view (reconnect), seating never changes. Left this
   * table: watch. A newcomer: sit (seat given / free seat) or watch.
   */
  /**
   * The client shows the lobby: `games_updated` (full list) and `online_users` once, then table-list deltas
   * (`game_added` / `game_changed` / `game_removed`) and `presence_changed`; `{full:true}` asks for the full
   * list (coalesced, at most once a second) instead of deltas.
   */
  @SubscribeMessage('watch_lobby')
  watchLobby(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'watch_lobby'>) {
    return this.run(c, 'watch_lobby', WatchLobbyInput, data, async (userId, p) => {
      const full = p.full === true;
      await c.join(full ? [LOBBY_VIEW_ROOM, LOBBY_LIST_FULL_ROOM] : LOBBY_VIEW_ROOM);
      if (!full) await c.leave(LOBBY_LIST_FULL_ROOM);
      c.emit('games_updated', await this.games.list(userId));
      c.emit('online_users', this.realtime.onlineUserIds());
      return {};
    });
  }

  @SubscribeMessage('unwatch_lobby')
  unwatchLobby(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'unwatch_lobby'>) {
    return this.run(c, 'unwatch_lobby', NoPayloadInput, data, async () => {
      await c.leave(LOBBY_VIEW_ROOM);
      await c.leave(LOBBY_LIST_FULL_ROOM);
      return {};
    });
  }

  /**
   * The view of a table the user is already at (seated or watching; `watching`: only as a spectator), or null.
   * A socket coming back after a reconnect gets its exact view without reading the account or queueing a command:
   * joinOrWatch / spectate would change nothing for it (a reconnect storm of 4,000 sockets: 8,000 queries less).
   */
  private async rejoinView(gameId: string, userId: string, watching: boolean) {
    const rec = await this.games.record(gameId).catch(() => null);
    if (!rec || rec.status === 'CLOSED' || !(watching ? isSpectator(rec, userId) : isMember(rec, userId))) return null;
    return this.games.view(gameId, userId);
  }

  @SubscribeMessage('join_game')
  joinGame(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'join_game'>) {
    return this.run(c, 'join_game', JoinGameInput, data, async (userId, p) => {
      const view =
        (await this.rejoinView(p.gameId, userId, false)) ??
        (await this.games.joinOrWatch(p.gameId, await this.people.get(userId), p.seatIndex, p.invite));
      c.emit('game_update', view);
      return { gameId: view.id, seat: view.mySeat };
    });
  }

  @SubscribeMessage('join_game_as_spectator')
  spectate(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'join_game_as_spectator'>) {
    return this.run(c, 'join_game_as_spectator', SpectateInput, data, async (userId, p) => {
      const view =
        (await this.rejoinView(p.gameId, userId, true)) ??
        (await this.games.spectate(p.gameId, await this.people.get(userId), p.invite));
      c.emit('game_update', view);
      return { gameId: p.gameId };
    });
  }

  @SubscribeMessage('leave_game')
  leave(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'leave_game'>) {
    return this.run(c, 'leave_game', GameIdInput, data, (userId, p) => this.games.leave(p.gameId, userId));
  }

  @SubscribeMessage('start_game')
  start(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'start_game'>) {
    return this.run(c, 'start_game', GameIdInput, data, async (userId, p) => {
      await this.games.start(p.gameId, userId);
      return {};
    });
  }

  @SubscribeMessage('make_bid')
  bid(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'make_bid'>) {
    return this.run(c, 'make_bid', MakeBidInput, data, (userId, p) =>
      this.games.act(p.gameId, userId, 'bid', { bid: p.bid, blind: p.blind }, p.actionId),
    );
  }

  @SubscribeMessage('play_card')
  play(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'play_card'>) {
    return this.run(c, 'play_card', PlayCardInput, data, (userId, p) =>
      this.games.act(p.gameId, userId, 'play', { card: p.card }, p.actionId),
    );
  }

  /** Issue #31: claim the remaining tricks; refused (nothing changes) unless common's claim check proves it. */
  @SubscribeMessage('claim')
  claim(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'claim'>) {
    return this.run(c, 'claim', TableActionInput, data, (userId, p) => this.games.claim(p.gameId, userId, p.actionId));
  }

  /** Issue #31: a quick-chat preset, counted against the same per-player limit as typed chat. */
  @SubscribeMessage('quick_chat')
  quickChat(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'quick_chat'>) {
    return this.run(c, 'quick_chat', QuickChatInput, data, async (userId, p) => {
      await this.people.assertChatRate(userId, p.gameId, p.actionId);
      return this.games.quickChat(p.gameId, await this.people.get(userId), p.id, p.actionId);
    });
  }

  /** Not in the spec: the player looks at their cards (declines blind nil). */
  @SubscribeMessage('reveal_cards')
  reveal(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'reveal_cards'>) {
    return this.run(c, 'reveal_cards', TableActionInput, data, (userId, p) =>
      this.games.act(p.gameId, userId, 'reveal', {}, p.actionId),
    );
  }

  @SubscribeMessage('start_new_hand')
  startNewHand(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'start_new_hand'>) {
    return this.run(c, 'start_new_hand', GameIdInput, data, (userId, p) => this.games.startNewHand(p.gameId, userId));
  }

  @SubscribeMessage('play_again')
  playAgain(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'play_again'>) {
    return this.run(c, 'play_again', GameIdInput, data, (userId, p) => this.games.playAgain(p.gameId, userId));
  }

  /** Fills an open seat with a bot: host while WAITING; during a game the partner rule of spec §5. */
  @SubscribeMessage('fill_seat_with_bot')
  fillSeat(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'fill_seat_with_bot'>) {
    return this.botCommand(c, 'fill_seat_with_bot', data, 'invite');
  }

  @SubscribeMessage('invite_bot')
  inviteBot(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'invite_bot'>) {
    return this.botCommand(c, 'invite_bot', data, 'invite');
  }

  @SubscribeMessage('remove_bot')
  removeBot(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'remove_bot'>) {
    return this.botCommand(c, 'remove_bot', data, 'remove');
  }

  /** Bot seat commands: the requester must be the token's user; the table's state decides WAITING vs mid-game rules. */
  private botCommand(
    c: AppSocket,
    event: 'fill_seat_with_bot' | 'invite_bot' | 'remove_bot',
    data: unknown,
    op: 'invite' | 'remove',
  ) {
    return this.run(c, event, BotSeatInput, data, async (userId, p) => {
      checkRequester(p, userId);
      const midGame = (await this.games.record(p.gameId)).status !== 'WAITING';
      if (op === 'invite') await this.games.inviteBot(p.gameId, userId, p.seatIndex, midGame);
      else await this.games.removeBot(p.gameId, userId, p.seatIndex, midGame);
      return {};
    });
  }

  /** Issue #12: invite a friend to the table (`game_invitation` to them), optionally holding a seat. */
  @SubscribeMessage('invite_player')
  invitePlayer(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'invite_player'>) {
    return this.run(c, 'invite_player', InvitePlayerInput, data, async (userId, p) => {
      const to = await this.people.find(p.userId);
      await this.people.assertCanInvite(userId, to.userId);
      return this.games.invitePlayer(p.gameId, await this.people.get(userId), to, p.reserveSeat === true);
    });
  }

  @SubscribeMessage('decline_invitation')
  declineInvitation(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'decline_invitation'>) {
    return this.run(c, 'decline_invitation', GameIdInput, data, (userId, p) =>
      this.games.declineInvitation(p.gameId, userId),
    );
  }

  @SubscribeMessage('chat_message')
  chat(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'chat_message'>) {
    return this.run(c, 'chat_message', ChatMessageInput, data, async (userId, p) => {
      // the whole input is checked (the DTO) before the rate limit: a refused message does not use it up
      await this.people.assertChatRate(userId, p.gameId, p.actionId);
      return this.games.chat(p.gameId, await this.people.get(userId), chatText(p), p.actionId);
    });
  }

  /** Legacy client call: the server already times the trick display (TRICK_DISPLAY_MS). */
  @SubscribeMessage('setup_trick_completion_delay')
  trickDelay(@ConnectedSocket() c: AppSocket, @MessageBody() data: ClientPayload<'setup_trick_completion_delay'>) {
    return this.run(c, 'setup_trick_completion_delay', NoPayloadInput, data, async () => ({}));
  }
}

function isHttpError(e: unknown): boolean {
  return !!e && typeof e === 'object' && typeof (e as { getStatus?: unknown }).getStatus === 'function';
}

function messageOf(e: Error): string {
  const r = (e as { getResponse?: () => unknown }).getResponse?.();
  if (r && typeof r === 'object' && typeof (r as { message?: unknown }).message === 'string')
    return (r as { message: string }).message;
  return e.message;
}
