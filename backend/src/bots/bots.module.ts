import { Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { BotMetrics } from './bot-metrics';
import { BotPool, botPoolOptionsFromEnv } from './bot-pool';

@Injectable()
export class BotPoolShutdown implements OnApplicationShutdown {
  constructor(private readonly pool: BotPool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * Provides one shared `BotPool` (inject it by its class). Workers start at the first strong request.
 * Environment: BOT_WORKERS (threads, default cores − 1, at least 1), BOT_STRONG_MS (largest time box, when idle,
 * default 40), BOT_FLOOR_MS (smallest time box, under load, default 3), BOT_TIMEOUT_MS (stuck worker replaced
 * after, default 2000), BOT_CPU_SHARE (share of the idle CPU the workers may take, default 0.8). The level (BOT_LEVEL) is chosen per call by the caller.
 */
@Global()
@Module({
  providers: [
    { provide: BotPool, useFactory: () => new BotPool(botPoolOptionsFromEnv()) },
    BotPoolShutdown,
    BotMetrics,
  ],
  exports: [BotPool],
})
export class BotsModule {}
