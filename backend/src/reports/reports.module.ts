import { Global, Module } from '@nestjs/common';
import { GamesModule } from '../games/games.module';
import { PlayerMutesService } from './player-mutes.service';
import { ReportContextCapture } from './report-context';
import { ReportsConsoleController } from './reports-console.controller';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

/**
 * Reports, player mutes and the auto-mute (issue #25). Global: the dashboard (openCount) and the players console
 * (against) read ReportsService. Chat hiding of mutes lives in chat-hides.ts (used by the lobby and table chat).
 */
@Global()
@Module({
  imports: [GamesModule],
  controllers: [ReportsController, ReportsConsoleController],
  providers: [ReportContextCapture, ReportsService, PlayerMutesService],
  exports: [ReportsService, PlayerMutesService],
})
export class ReportsModule {}
