/**
 * Issue #27: `watch_tournament` / `unwatch_tournament` (identity: the socket's verified user). A watcher's sockets
 * join the room `tournament:<id>` and get `tournament_updated` after every change and `tournament_scores` after
 * each hand at its tables (the ack carries the view now). Acks `WatchTournamentAck` / `UnwatchTournamentAck`
 * (common); a refusal also emits `error { message, event, code? }`. The lobby's `tournaments_changed` comes from
 * TournamentsLobbyFeed.
 */
import { HttpException, Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import {
  WireError,
  type ClientEventName,
  type ClientPayload,
  type TournamentAckRefused,
  type UnwatchTournamentAck,
  type WatchTournamentAck,
} from '@spades/common';
import { reportUnexpected } from '../common/error-ref';
import { InvalidPayload, parsePayload } from '../common/payload';
import type { AppSocket } from '../realtime/realtime.service';
import { tournamentRoom } from './tournaments.driver';
import { WatchTournamentInput } from './tournaments.input';
import { TournamentsService } from './tournaments.service';

@WebSocketGateway()
export class TournamentsGateway {
  private readonly log = new Logger('TournamentsGateway');

  constructor(private readonly tournaments: TournamentsService) {}

  private async run<T extends { ok: true }>(
    client: AppSocket,
    event: ClientEventName,
    fn: (userId: string) => Promise<T>,
  ): Promise<T | TournamentAckRefused> {
    try {
      const userId = client.data?.userId;
      if (!userId) throw new HttpException({ message: 'Not authenticated' }, 401);
      return await fn(userId);
    } catch (e) {
      const message = e instanceof HttpException ? e.message : reportUnexpected(this.log, event, e);
      const code = e instanceof InvalidPayload ? { code: WireError.INVALID_PAYLOAD } : {};
      client.emit('error', { message, event, ...code });
      return { ok: false, message, ...code };
    }
  }

  @SubscribeMessage('watch_tournament')
  watch(
    @ConnectedSocket() c: AppSocket,
    @MessageBody() body: ClientPayload<'watch_tournament'>,
  ): Promise<WatchTournamentAck> {
    return this.run(c, 'watch_tournament', async () => {
      const id = parsePayload(WatchTournamentInput, body).tournamentId;
      const tournament = await this.tournaments.view(id, null);
      await c.join(tournamentRoom(id));
      return { ok: true as const, tournament };
    });
  }

  @SubscribeMessage('unwatch_tournament')
  unwatch(
    @ConnectedSocket() c: AppSocket,
    @MessageBody() body: ClientPayload<'unwatch_tournament'>,
  ): Promise<UnwatchTournamentAck> {
    return this.run(c, 'unwatch_tournament', async () => {
      await c.leave(tournamentRoom(parsePayload(WatchTournamentInput, body).tournamentId));
      return { ok: true as const };
    });
  }
}
