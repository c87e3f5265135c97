/**
 * Issue #28: quick play over the socket (identity: `socket.data.userId`, set by the shared socket authentication).
 * Every event answers an ack `{ok:true,…} | {ok:false,message}` and on refusal also emits `error {message, event}`.
 * A socket that goes away leaves the queue when its user has no other socket; the client re-sends
 * `quickplay_join` after a reconnect (also after its node died), so nobody is matched while absent.
 */
import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { reportUnexpected } from '../common/error-ref';
import { TableError } from '../games/table';
import { RealtimeService, type AppSocket } from '../realtime/realtime.service';
import { WireError, type ClientEventName, type ClientPayload } from '@spades/common';
import { InvalidPayload, NoPayloadInput, parsePayload } from '../common/payload';
import { MatchmakingService } from './matchmaking.service';
import { PartnersService } from './partners.service';
import { PartnerAnswerInput, PartnerInviteInput, PlayBotsNowInput, QuickPlayJoinInput } from './quickplay.input';

@WebSocketGateway()
export class MatchmakingGateway implements OnGatewayDisconnect {
  private readonly log = new Logger('MatchmakingGateway');

  constructor(
    private readonly mm: MatchmakingService,
    private readonly partners: PartnersService,
    private readonly realtime: RealtimeService,
  ) {}

  /** The payload checked against its DTO before anything runs (`InvalidPayload`), then the command. */
  private async run<T extends object>(
    client: Socket,
    event: ClientEventName,
    dto: new () => T,
    data: unknown,
    fn: (userId: string, input: T) => Promise<unknown>,
  ): Promise<unknown> {
    try {
      const userId = client.data?.userId as string | undefined;
      if (!userId) throw new TableError('Not authenticated', 401);
      const input = parsePayload(dto, data);
      const result = await fn(userId, input);
      return { ...(result && typeof result === 'object' ? result : {}), ok: true };
    } catch (e) {
      const known = e instanceof TableError || (e as { getStatus?: unknown })?.getStatus;
      const message = known ? (e as Error).message : reportUnexpected(this.log, event, e);
      const code = e instanceof InvalidPayload ? WireError.INVALID_PAYLOAD : undefined;
      client.emit('error', { message, event, ...(code ? { code } : {}) });
      return { ok: false, message, ...(code ? { code } : {}) };
    }
  }

  handleDisconnect(client: Socket): void {
    const userId = client.data?.userId as string | undefined;
    if (!userId) return;
    setTimeout(() => {
      if (!this.realtime.isOnline(userId)) void this.mm.leave(userId).catch(() => undefined);
    }, 0);
  }

  @SubscribeMessage('quickplay_join')
  join(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'quickplay_join'>) {
    return this.run(c, 'quickplay_join', QuickPlayJoinInput, body, (u, p) => this.mm.join(u, p));
  }

  @SubscribeMessage('quickplay_leave')
  leave(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'quickplay_leave'>) {
    return this.run(c, 'quickplay_leave', NoPayloadInput, body, (u) => this.mm.leave(u));
  }

  @SubscribeMessage('quickplay_status')
  status(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'quickplay_status'>) {
    return this.run(c, 'quickplay_status', NoPayloadInput, body, (u) => this.mm.status(u));
  }

  @SubscribeMessage('quickplay_bots')
  bots(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'quickplay_bots'>) {
    return this.run(c, 'quickplay_bots', NoPayloadInput, body, (u) => this.mm.acceptBots(u));
  }

  @SubscribeMessage('play_bots_now')
  playBots(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'play_bots_now'>) {
    return this.run(c, 'play_bots_now', PlayBotsNowInput, body, (u, p) => this.mm.playBotsNow(u, p));
  }

  @SubscribeMessage('partner_invite')
  invite(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'partner_invite'>) {
    return this.run(c, 'partner_invite', PartnerInviteInput, body, (u, p) => this.partners.invite(u, p));
  }

  @SubscribeMessage('partner_accept')
  accept(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'partner_accept'>) {
    return this.run(c, 'partner_accept', PartnerAnswerInput, body, (u, p) => this.partners.accept(u, p));
  }

  @SubscribeMessage('partner_decline')
  decline(@ConnectedSocket() c: AppSocket, @MessageBody() body: ClientPayload<'partner_decline'>) {
    return this.run(c, 'partner_decline', PartnerAnswerInput, body, (u, p) => this.partners.decline(u, p));
  }
}
