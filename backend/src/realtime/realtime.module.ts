import { Global, Module } from '@nestjs/common';
import { ClusterRedis } from './cluster-redis';
import { RealtimeService } from './realtime.service';
import { WsAuthGuard } from './ws-auth';

@Global()
@Module({
  providers: [ClusterRedis, RealtimeService, WsAuthGuard],
  exports: [ClusterRedis, RealtimeService, WsAuthGuard],
})
export class RealtimeModule {}
