import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module';
import { GamesController, HistoryController, InvitationsController } from './games.controller';
import { HistoryService } from './history';
import { GAMES_CONFIG, loadGamesConfig } from './games.config';
import { GamesGateway } from './games.gateway';
import { GamesService } from './games.service';
import { ClusterPeers } from './cluster-peers';
import { LocalTables } from './local-tables.service';
import { LobbyQueries } from './lobby-queries';
import { TableChat } from './table-chat';
import { TableCommands } from './table-commands';
import { TableFailover } from './table-failover';
import { TableInvitations } from './table-invitations';
import { TablePlacement } from './table-placement';
import { TableRouter } from './table-router';
import { TournamentTableCommands } from './tournament-table-commands';
import { GamesSettlement } from './games.settlement';
import { TableFanout } from './table.fanout';
import { TableStore } from './table.store';
import { TableOwnership } from './table.ownership';
import { ChatBlocks } from './chat-visibility';
import { AbandonedTables } from './abandoned-tables';
import { ParticipantsService } from './participants.service';
import { TableAccess } from './table.access';
import { ReplayShareController, ReplayShares, SharedReplayController } from './replay-share';
import { GamesLedger, GamesRealtime, RealtimeGamesEmitter } from './ports';

/**
 * Real-time tables (issue #4). Uses the global platform modules: coins (ledger), stats, realtime, auth/users.
 * Bots: the shared BotPool (strong bot in worker threads) at BOT_LEVEL. Timings come from the environment
 * (see games.config.ts).
 */
@Module({
  imports: [BotsModule],
  controllers: [
    GamesController,
    HistoryController,
    InvitationsController,
    ReplayShareController,
    SharedReplayController,
  ],
  providers: [
    { provide: GAMES_CONFIG, useFactory: () => loadGamesConfig(process.env) },
    { provide: GamesRealtime, useClass: RealtimeGamesEmitter },
    GamesLedger,
    TableStore,
    TableOwnership,
    TableFanout,
    GamesSettlement,
    ParticipantsService,
    ChatBlocks,
    TableAccess,
    ReplayShares,
    ClusterPeers,
    LocalTables,
    LobbyQueries,
    TableCommands,
    TableInvitations,
    TableChat,
    TournamentTableCommands,
    TableFailover,
    TableRouter,
    TablePlacement,
    GamesService,
    HistoryService,
    GamesGateway,
    AbandonedTables,
  ],
  exports: [GamesService],
})
export class GamesModule {}
