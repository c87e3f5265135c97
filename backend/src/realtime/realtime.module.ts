import { Global, Module } from '@nestjs/common';
import { RealtimeService } from './realtime.service';
import { WsAuthGuard } from './ws-auth';

@Global()
@Module({ providers: [RealtimeService, WsAuthGuard], exports: [RealtimeService, WsAuthGuard] })
export class RealtimeModule {}
