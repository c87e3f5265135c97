export { BotPool, botLevelFromEnv, botPoolOptionsFromEnv, isLegalBotAction, BOT_LEVELS } from './bot-pool';
export type { BotLevel, BotPoolOptions, BotPoolStats } from './bot-pool';
export { BotsModule } from './bots.module';
