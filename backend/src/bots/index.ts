export { BotPool, botLevelFromEnv, botPoolOptionsFromEnv, isLegalBotAction, BOT_LEVELS } from './bot-pool';
export type {
  BotLevel,
  BotPoolOptions,
  BotPoolStats,
  BotDecideOptions,
  BotDecisionEvent,
  BotFallbackReason,
} from './bot-pool';
export { chooseTimebox, DECISION_MS_BUCKETS } from './bot-budget';
export type { HistogramSnapshot } from './bot-budget';
export { BotPrefetch } from './bot-prefetch';
export { BotsModule } from './bots.module';
