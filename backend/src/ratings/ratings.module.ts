import { Global, Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';
import { AdminController, RatingsController } from './ratings.controller';
import { loadRatingsConfig, RATINGS_CONFIG } from './ratings.config';
import { RatingsService } from './ratings.service';
import { UsersModule } from '../users/users.module';

/** Skill ratings, completion rate, leaver bans and the admin collusion report (issue #11). Global: the games port uses RatingsService. */
@Global()
@Module({
  imports: [UsersModule],
  controllers: [RatingsController, AdminController],
  providers: [
    { provide: RATINGS_CONFIG, useFactory: () => loadRatingsConfig(process.env) },
    RatingsService,
    AdminGuard,
  ],
  exports: [RatingsService],
})
export class RatingsModule {}
