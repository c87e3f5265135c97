import { Global, Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module';
import { DashboardController } from './dashboard.controller';
import { DashboardSampler } from './dashboard.sampler';
import { DashboardService } from './dashboard.service';
import { ConsoleTablesController } from './tables.controller';
import { ConsoleTablesService } from './tables.service';

/**
 * The console's tables and dashboard (issue #25). Global: the sanctions module calls
 * `ConsoleTablesService.evictEverywhere` on a ban.
 */
@Global()
@Module({
  imports: [GamesModule],
  controllers: [ConsoleTablesController, DashboardController],
  providers: [ConsoleTablesService, DashboardSampler, DashboardService],
  exports: [ConsoleTablesService],
})
export class ConsoleTablesModule {}
