import { Global, Module } from '@nestjs/common';
import { ClusterRedis } from './cluster-redis';
import { RateLimiter } from './rate.limiter';
import { RealtimeService } from './realtime.service';
import { WsAuthGuard } from './ws-auth';

@Global()
@Module({
  providers: [ClusterRedis, RateLimiter, RealtimeService, WsAuthGuard],
  exports: [ClusterRedis, RateLimiter, RealtimeService, WsAuthGuard],
})
export class RealtimeModule {}
