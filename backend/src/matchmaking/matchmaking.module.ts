import { Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module';
import { UsersModule } from '../users/users.module';
import { MatchmakingController } from './matchmaking.controller';
import { loadQueueConfig, MATCHMAKING_CONFIG } from './matchmaking.config';
import { MatchmakingGateway } from './matchmaking.gateway';
import { MatchmakingService } from './matchmaking.service';
import { QueueStore } from './matchmaking.store';
import { PartnersService } from './partners.service';

/** Issue #28: quick play (matchmaking queue, partners, "Play bots now"). */
@Module({
  imports: [GamesModule, UsersModule],
  controllers: [MatchmakingController],
  providers: [
    { provide: MATCHMAKING_CONFIG, useFactory: () => loadQueueConfig(process.env) },
    QueueStore,
    MatchmakingService,
    PartnersService,
    MatchmakingGateway,
  ],
  exports: [MatchmakingService],
})
export class MatchmakingModule {}
