import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { GamesModule } from '../games/games.module';
import { TOURNAMENT_RESULTS } from '../games/tournament-tables';
import { TournamentsConsoleController, TournamentsController } from './tournaments.controller';
import { TournamentsDriver } from './tournaments.driver';
import { TournamentsGateway } from './tournaments.gateway';
import { TournamentsLobbyFeed } from './tournaments.lobby-feed';
import { TournamentResultsHub } from './tournaments.results';
import { TournamentsScheduler } from './tournaments.scheduler';
import { TournamentsService } from './tournaments.service';
import { TournamentsStore } from './tournaments.store';

/**
 * Issue #27: tournaments (docs/tournaments.md). Global only for the `TOURNAMENT_RESULTS` sink GamesService injects
 * (the games module cannot import this one: it imports the games module).
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot(), GamesModule],
  controllers: [TournamentsController, TournamentsConsoleController],
  providers: [
    TournamentResultsHub,
    { provide: TOURNAMENT_RESULTS, useExisting: TournamentResultsHub },
    TournamentsStore,
    TournamentsService,
    TournamentsDriver,
    TournamentsScheduler,
    TournamentsGateway,
    TournamentsLobbyFeed,
  ],
  exports: [TOURNAMENT_RESULTS, TournamentsService],
})
export class TournamentsModule {}
