import { Bot, BOTS, getBot } from '@spades/common';

/** Best first: the strong bot (when it lands in common), then the others. */
const PREFERENCE = ['strong', 'heuristic', 'basic', 'random'];

/** The bot for BOT_LEVEL, falling back to the best bot available in common. */
export function pickBot(level: string): Bot {
  const exact = getBot(level);
  if (exact) return exact;
  for (const name of PREFERENCE) {
    const b = getBot(name);
    if (b) return b;
  }
  const any = Object.values(BOTS)[0];
  if (!any) throw new Error('No bot is available in @spades/common');
  return any;
}
