import { DynamicModule, Module } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';
import { LoggerModule } from 'nestjs-pino';
import { join } from 'node:path';
import { setStaticCacheHeaders } from './common/delivery';
import { pinoParams } from './common/logging';
import { AppConfigModule } from './config/config.module';
import { AppConfig } from './config/config.schema';
import { DatabaseModule } from './database/database.module';
import { GamesModule } from './games/games.module';
import { AuthModule } from './auth/auth.module';
import { ClusterModule } from './cluster/cluster.module';
import { CoinsModule } from './coins/coins.module';
import { HealthModule } from './health/health.module';
import { LeaderboardModule } from './leaderboard/leaderboard.controller';
import { MetricsModule } from './metrics/metrics.module';
import { LobbyModule } from './lobby/lobby.module';
import { RatingsModule } from './ratings/ratings.module';
import { AdminModule } from './admin/admin.module';
import { BackupModule } from './backup/backup.module';
import { ConsoleTablesModule } from './admin/tables.module';
import { ModerationModule } from './moderation/moderation.module';
import { ReportsModule } from './reports/reports.module';
import { RealtimeModule } from './realtime/realtime.module';
import { ServerInfoModule } from './server-info/server-info.module';
import { SettingsModule } from './settings/settings.module';
import { SocialModule } from './social/social.module';
import { StatsModule } from './stats/stats.module';
import { UsersModule } from './users/users.module';
import { OptionsModule } from './options/options.module';
import { AccountModule } from './account/account.module';
import { MatchmakingModule } from './matchmaking/matchmaking.module';
import { TournamentsModule } from './tournaments/tournaments.module';

/**
 * Feature modules. Global ones (CoinsModule, StatsModule, RealtimeModule, AuthModule) export CoinsService,
 * StatsService, RealtimeService / WsAuthGuard and JwtAuthGuard / TokenService to every module.
 * The games module (issue #4) is added to this list.
 */
export const FEATURE_MODULES: NonNullable<DynamicModule['imports']> = [
  MetricsModule,
  ClusterModule,
  CoinsModule,
  StatsModule,
  RatingsModule,
  AdminModule,
  BackupModule,
  RealtimeModule,
  UsersModule,
  AuthModule,
  SocialModule,
  LobbyModule,
  LeaderboardModule,
  GamesModule,
  ConsoleTablesModule,
  ModerationModule,
  ReportsModule,
  ServerInfoModule,
  SettingsModule,
  OptionsModule,
  AccountModule,
  MatchmakingModule,
  TournamentsModule,
];

@Module({})
export class AppModule {
  /** `overrides` replace environment variables (tests); production reads process.env (and ./.env). */
  static forRoot(
    overrides?: Record<string, string | undefined>,
    opts: { logStream?: NodeJS.WritableStream } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(overrides),
        LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: (c: AppConfig) => pinoParams(c, opts.logStream) }),
        DatabaseModule,
        ServeStaticModule.forRoot({
          rootPath: join(__dirname, '..', '..', 'desktop', 'dist', 'web'),
          exclude: ['/api/{*path}', '/health', '/health/{*path}', '/metrics', '/socket.io/{*path}'],
          // hashed /assets/* immutable for a year; index.html and the rest revalidated (common/delivery.ts)
          serveStaticOptions: { setHeaders: setStaticCacheHeaders },
        }),
        HealthModule,
        ...FEATURE_MODULES,
      ],
    };
  }
}
