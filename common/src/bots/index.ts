import type { Bot } from './types';
import { basicBot } from './basic';
import { randomBot } from './random';
import { heuristicBot } from './heuristic';
import { strongBot } from './strong';

export type { Bot } from './types';
export { basicBot } from './basic';
export { randomBot } from './random';
export { mulberry32, randomInt, randomSeed } from './prng';
export { playGame, playHand } from './driver';
export type { DriveOptions, DriveResult } from './driver';
export { heuristicBot, heuristicAct, estimateTricks, nilDanger, heuristicCard, knowledgeFromView } from './heuristic';
export { strongBot, createStrongBot, strongAct, strongCard, strongNeedsSearch } from './strong';
export type { StrongOptions } from './strong';
export {
  BotFallbackError,
  botFallbackCount,
  isBotFallbackStrict,
  onBotFallback,
  reportBotFallback,
  setBotFallbackStrict,
} from './fallback';
export type { BotFallbackEvent } from './fallback';

/** Registry of the available bots by name (a strong bot will be added here behind the same interface). */
export const BOTS: Record<string, Bot> = {
  random: randomBot,
  basic: basicBot,
  heuristic: heuristicBot,
  strong: strongBot,
};

export function getBot(name: string): Bot | undefined {
  return Object.prototype.hasOwnProperty.call(BOTS, name) ? BOTS[name] : undefined;
}
export { bidHint } from './hint';
