import { Global, Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { PlayersConsoleController } from './players-console.controller';
import { PlayersActions } from './players.actions';
import { PlayersQuery } from './players.query';
import { SanctionsCache } from './sanctions.cache';
import { SanctionsEnforcement } from './sanctions.enforcement';
import { SanctionsService } from './sanctions.service';
import { StandingController } from './standing.controller';

/**
 * Players and sanctions (issue #25). Global: the reports queue applies sanctions (SanctionsService.apply), chat
 * asks for mutes (muteFor) and sign-ins for bans (activeBan).
 */
@Global()
@Module({
  imports: [UsersModule],
  controllers: [PlayersConsoleController, StandingController],
  providers: [SanctionsCache, SanctionsEnforcement, SanctionsService, PlayersQuery, PlayersActions],
  exports: [SanctionsService],
})
export class ModerationModule {}
