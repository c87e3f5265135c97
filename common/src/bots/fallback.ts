/**
 * The bots' safety net, made observable.
 *
 * When a bot's own choice (a card or a bid) is not among the legal ones (a bug in the bot), the bot still
 * returns a legal action in production (the first legal one) so a table never stalls — but the event is
 * counted (`botFallbackCount`), reported to every listener (`onBotFallback`, e.g. for the server's log) and,
 * in strict mode (`setBotFallbackStrict(true)`, used by the tests), thrown as a `BotFallbackError` so a bad
 * choice fails the test instead of hiding.
 *
 * The state is per module instance (per worker thread).
 */

export interface BotFallbackEvent {
  /** The bot whose choice was not legal ('heuristic', 'strong'). */
  bot: string;
  kind: 'bid' | 'card';
  /** What the bot chose (a bid, or a card as the fast engine's index or a Card). */
  chosen: unknown;
  /** What it returned instead (the first legal choice). */
  used: unknown;
}

export class BotFallbackError extends Error {
  constructor(readonly event: BotFallbackEvent) {
    super(
      `bot ${event.bot} chose an illegal ${event.kind} ${JSON.stringify(event.chosen)} (fallback would use ${JSON.stringify(event.used)})`,
    );
    this.name = 'BotFallbackError';
  }
}

let strict = false;
let count = 0;
const listeners = new Set<(e: BotFallbackEvent) => void>();

/** Strict mode: a fallback throws a BotFallbackError instead of returning the first legal action. Returns the previous mode. */
export function setBotFallbackStrict(on: boolean): boolean {
  const prev = strict;
  strict = on;
  return prev;
}

export function isBotFallbackStrict(): boolean {
  return strict;
}

/** How many times a bot fell back to the first legal action (since the module was loaded). */
export function botFallbackCount(): number {
  return count;
}

/** Calls `listener` on every fallback (before a strict-mode throw); returns the function that unsubscribes it. */
export function onBotFallback(listener: (e: BotFallbackEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Records a fallback: counts it, tells the listeners (their errors are ignored) and throws in strict mode. */
export function reportBotFallback(event: BotFallbackEvent): void {
  count++;
  for (const l of listeners) {
    try {
      l(event);
    } catch {
      // a listener must never break a bot's decision
    }
  }
  if (strict) throw new BotFallbackError(event);
}
