/**
 * Issue #27: `watch_tournament` / `unwatch_tournament` (identity: the socket's verified user). A watcher's sockets
 * join the room `tournament:<id>` and get `tournament_updated` after every change (the ack carries the view now).
 * Acks `{ ok:true, … } | { ok:false, message }`; a refusal also emits `error { message, event }`.
 */
import { HttpException, Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { ClientPayload } from '@spades/common';
import type { Socket } from 'socket.io';
import { reportUnexpected } from '../common/error-ref';
import { InvalidPayload, parsePayload } from '../common/payload';
import { tournamentRoom } from './tournaments.driver';
import { WatchTournamentInput } from './tournaments.input';
import { TournamentsService } from './tournaments.service';

@WebSocketGateway()
export class TournamentsGateway {
  private readonly log = new Logger('TournamentsGateway');

  constructor(private readonly tournaments: TournamentsService) {}

  private async run(client: Socket, event: string, fn: (userId: string) => Promise<object>): Promise<unknown> {
    try {
      const userId = client.data?.userId as string | undefined;
      if (!userId) throw new HttpException({ message: 'Not authenticated' }, 401);
      return { ...(await fn(userId)), ok: true };
    } catch (e) {
      const message = e instanceof HttpException ? e.message : reportUnexpected(this.log, event, e);
      const code = e instanceof InvalidPayload ? { code: e.code } : {};
      client.emit('error', { message, event, ...code });
      return { ok: false, message, ...code };
    }
  }

  @SubscribeMessage('watch_tournament')
  watch(@ConnectedSocket() c: Socket, @MessageBody() body: ClientPayload<'watch_tournament'>) {
    return this.run(c, 'watch_tournament', async () => {
      const id = parsePayload(WatchTournamentInput, body).tournamentId;
      const tournament = await this.tournaments.view(id, null);
      await c.join(tournamentRoom(id));
      return { tournament };
    });
  }

  @SubscribeMessage('unwatch_tournament')
  unwatch(@ConnectedSocket() c: Socket, @MessageBody() body: ClientPayload<'watch_tournament'>) {
    return this.run(c, 'unwatch_tournament', async () => {
      await c.leave(tournamentRoom(parsePayload(WatchTournamentInput, body).tournamentId));
      return {};
    });
  }
}
