/**
 * Socket handlers of the game events (spec §7). The socket's identity (`socket.data.userId`) is set by the
 * platform's shared socket authentication; any userId/requesterId in a payload must match it or is ignored.
 * Every handler answers through the acknowledgement ({ok:true,…} | {ok:false,message}) and, on refusal, also
 * emits `error { message, event }` to the calling socket; a refused action changes nothing.
 */
import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { checkActionId, parseChatInput } from '@spades/common';
import type { Socket } from 'socket.io';
import { reportUnexpected } from '../common/error-ref';
import { LOBBY_LIST_FULL_ROOM, LOBBY_VIEW_ROOM, RealtimeService } from '../realtime/realtime.service';
import { GamesService } from './games.service';
import { ParticipantsService } from './participants.service';
import { isSpectator, TableError } from './table';
import { isMember } from './visibility';

type Payload = Record<string, unknown>;

function obj(data: unknown): Payload {
  if (typeof data === 'string') return { gameId: data };
  return data && typeof data === 'object' ? (data as Payload) : {};
}

function gameIdOf(p: Payload): string {
  const id = p.gameId ?? p.id;
  if (typeof id !== 'string' || !id) throw new TableError('gameId is required');
  return id;
}

function seatOf(p: Payload, required: boolean): number | undefined {
  const v = p.seatIndex ?? p.seat;
  if (v === undefined || v === null) {
    if (required) throw new TableError('seatIndex must be 0, 1, 2 or 3');
    return undefined;
  }
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new TableError('seatIndex must be 0, 1, 2 or 3');
  return n;
}

function inviteOf(p: Payload): string | undefined {
  const v = p.invite;
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 200) throw new TableError('invite must be a string');
  return v;
}

function actionIdOf(p: Payload): string | undefined {
  const a = p.actionId ?? p.clientActionId;
  if (a === undefined || a === null) return undefined;
  if (typeof a !== 'string' && typeof a !== 'number') throw new TableError('actionId must be a string');
  const s = String(a);
  if (s.length === 0 || s.length > 100) throw new TableError('actionId must be 1-100 characters');
  const checked = checkActionId(s);
  if (!checked.ok) throw new TableError(checked.message);
  return s;
}

@WebSocketGateway()
export class GamesGateway {
  private readonly log = new Logger('GamesGateway');

  constructor(
    private readonly games: GamesService,
    private readonly people: ParticipantsService,
    private readonly realtime: RealtimeService,
  ) {}

  private async run(client: Socket, event: string, fn: (userId: string) => Promise<unknown>): Promise<unknown> {
    try {
      const userId = client.data?.userId as string | undefined;
      if (!userId) throw new TableError('Not authenticated', 401);
      const result = await fn(userId);
      return { ...(result && typeof result === 'object' && !Array.isArray(result) ? result : {}), ok: true };
    } catch (e) {
      // a refusal says why; anything else (a storage error, a bug) is logged with a reference the client gets instead
      const message = e instanceof TableError || isHttpError(e) ? messageOf(e as Error) : reportUnexpected(this.log, event, e);
      client.emit('error', { message, event });
      return { ok: false, message };
    }
  }

  private checkRequester(p: Payload, userId: string): void {
    const r = p.requesterId;
    if (r !== undefined && r !== null && r !== userId) throw new TableError('requesterId does not match the signed-in user', 403);
  }

  @SubscribeMessage('create_game')
  createGame(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'create_game', async (userId) => {
      const p = obj(data);
      const settings = p.settings ?? p.rules ?? p;
      const view = await this.games.create(settings, await this.people.get(userId), { private: p.private === true });
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
  watchLobby(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'watch_lobby', async (userId) => {
      const full = obj(data).full === true;
      await c.join(full ? [LOBBY_VIEW_ROOM, LOBBY_LIST_FULL_ROOM] : LOBBY_VIEW_ROOM);
      if (!full) await c.leave(LOBBY_LIST_FULL_ROOM);
      c.emit('games_updated', await this.games.list(userId));
      c.emit('online_users', this.realtime.onlineUserIds());
      return {};
    });
  }

  @SubscribeMessage('unwatch_lobby')
  unwatchLobby(@ConnectedSocket() c: Socket) {
    return this.run(c, 'unwatch_lobby', async () => {
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
  joinGame(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'join_game', async (userId) => {
      const p = obj(data);
      const gameId = gameIdOf(p);
      const seat = seatOf(p, false);
      const invite = inviteOf(p);
      const view =
        (await this.rejoinView(gameId, userId, false)) ??
        (await this.games.joinOrWatch(gameId, await this.people.get(userId), seat, invite));
      c.emit('game_update', view);
      return { gameId: view.id, seat: view.mySeat };
    });
  }

  @SubscribeMessage('join_game_as_spectator')
  spectate(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'join_game_as_spectator', async (userId) => {
      const p = obj(data);
      const gameId = gameIdOf(p);
      const invite = inviteOf(p);
      const view =
        (await this.rejoinView(gameId, userId, true)) ??
        (await this.games.spectate(gameId, await this.people.get(userId), invite));
      c.emit('game_update', view);
      return { gameId };
    });
  }

  @SubscribeMessage('leave_game')
  leave(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'leave_game', (userId) => this.games.leave(gameIdOf(obj(data)), userId));
  }

  @SubscribeMessage('start_game')
  start(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'start_game', async (userId) => {
      await this.games.start(gameIdOf(obj(data)), userId);
      return {};
    });
  }

  @SubscribeMessage('make_bid')
  bid(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'make_bid', (userId) => {
      const p = obj(data);
      return this.games.act(gameIdOf(p), userId, 'bid', { bid: p.bid, blind: p.blind }, actionIdOf(p));
    });
  }

  @SubscribeMessage('play_card')
  play(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'play_card', (userId) => {
      const p = obj(data);
      return this.games.act(gameIdOf(p), userId, 'play', { card: p.card }, actionIdOf(p));
    });
  }

  /** Not in the spec: the player looks at their cards (declines blind nil). */
  @SubscribeMessage('reveal_cards')
  reveal(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'reveal_cards', (userId) => {
      const p = obj(data);
      return this.games.act(gameIdOf(p), userId, 'reveal', {}, actionIdOf(p));
    });
  }

  @SubscribeMessage('start_new_hand')
  startNewHand(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'start_new_hand', (userId) => this.games.startNewHand(gameIdOf(obj(data)), userId));
  }

  @SubscribeMessage('play_again')
  playAgain(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'play_again', (userId) => this.games.playAgain(gameIdOf(obj(data)), userId));
  }

  /** Fills an open seat with a bot: host while WAITING; during a game the partner rule of spec §5. */
  @SubscribeMessage('fill_seat_with_bot')
  fillSeat(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.botCommand(c, 'fill_seat_with_bot', data, 'invite');
  }

  @SubscribeMessage('invite_bot')
  inviteBot(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.botCommand(c, 'invite_bot', data, 'invite');
  }

  @SubscribeMessage('remove_bot')
  removeBot(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.botCommand(c, 'remove_bot', data, 'remove');
  }

  /** Bot seat commands: the requester must be the token's user; the table's state decides WAITING vs mid-game rules. */
  private botCommand(c: Socket, event: string, data: unknown, op: 'invite' | 'remove') {
    return this.run(c, event, async (userId) => {
      const p = obj(data);
      this.checkRequester(p, userId);
      const gameId = gameIdOf(p);
      const midGame = (await this.games.record(gameId)).status !== 'WAITING';
      const seat = seatOf(p, true)!;
      if (op === 'invite') await this.games.inviteBot(gameId, userId, seat, midGame);
      else await this.games.removeBot(gameId, userId, seat, midGame);
      return {};
    });
  }

  /** Issue #12: invite a friend to the table (`game_invitation` to them), optionally holding a seat. */
  @SubscribeMessage('invite_player')
  invitePlayer(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'invite_player', async (userId) => {
      const p = obj(data);
      if (typeof p.userId !== 'string' || !p.userId) throw new TableError('userId is required');
      const to = await this.people.find(p.userId);
      await this.people.assertCanInvite(userId, to.userId);
      return this.games.invitePlayer(gameIdOf(p), await this.people.get(userId), to, p.reserveSeat === true);
    });
  }

  @SubscribeMessage('decline_invitation')
  declineInvitation(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'decline_invitation', (userId) => this.games.declineInvitation(gameIdOf(obj(data)), userId));
  }

  @SubscribeMessage('chat_message')
  chat(@ConnectedSocket() c: Socket, @MessageBody() data: unknown) {
    return this.run(c, 'chat_message', async (userId) => {
      const p = obj(data);
      const parsed = parseChatInput(p.message);
      if (!parsed.ok) throw new TableError(parsed.message);
      // the whole input is checked before the rate limit: a refused message does not use it up
      const [gameId, actionId] = [gameIdOf(p), actionIdOf(p)];
      await this.people.assertChatRate(userId, gameId, actionId);
      return this.games.chat(gameId, await this.people.get(userId), parsed.text, actionId);
    });
  }

  /** Legacy client call: the server already times the trick display (TRICK_DISPLAY_MS). */
  @SubscribeMessage('setup_trick_completion_delay')
  trickDelay(@ConnectedSocket() c: Socket) {
    return this.run(c, 'setup_trick_completion_delay', async () => ({}));
  }
}

function isHttpError(e: unknown): boolean {
  return !!e && typeof e === 'object' && typeof (e as { getStatus?: unknown }).getStatus === 'function';
}

function messageOf(e: Error): string {
  const r = (e as { getResponse?: () => unknown }).getResponse?.();
  if (r && typeof r === 'object' && typeof (r as { message?: unknown }).message === 'string') return (r as { message: string }).message;
  return e.message;
}
