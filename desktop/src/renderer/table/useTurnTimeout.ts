/**
 * Issue #31 item 1: the server played for this player because their turn timer ran out (`turn_timed_out`, sent to
 * them only). They get a toast and a line in the table chat ("Time ran out: 7♣ was played for you"); one timeout
 * before the seat goes to a bot, a warning stays on the felt until they act again.
 */
import { useEffect, useState } from 'react';
import { normalizeCard, rankCode, type TurnTimedOut } from '@spades/common';
import { useSocketEvent } from '../socket/socket';
import type { ChatMessage } from '../lib/types';
import { suitSymbol } from './CardFace';

/** "7♣" from a card code ("7C"); the code itself when it is not a card. */
export function cardText(code: string): string {
  const c = normalizeCard(code);
  return c ? `${rankCode(c.rank)}${suitSymbol(c.suit)}` : code;
}

/** What the player is told: the chat line / toast, and the warning about the seat (null when not yet due). */
export function timeoutTexts(p: TurnTimedOut): { line: string; warning: string | null } {
  const done =
    p.action.type === 'play'
      ? `${cardText(p.action.card)} was played for you`
      : `a bid of ${p.action.blind ? 'blind nil' : p.action.bid === 0 ? 'nil' : p.action.bid} was made for you`;
  const line = `Time ran out: ${done}.`;
  const left = p.maxTimeouts - p.timeouts;
  const warning = p.seatLost
    ? `You missed ${p.timeouts} turns in a row: a bot took your seat.`
    : left === 1
      ? `You missed ${p.timeouts} turn${p.timeouts === 1 ? '' : 's'} in a row. If the next turn runs out too, a bot takes your seat.`
      : null;
  return { line, warning };
}

export function useTurnTimeout({
  gameId,
  acted,
  onLine,
  notify,
}: {
  gameId: string;
  /** The player bid or played since (a pending card or a sent bid): the warning goes away. */
  acted: boolean;
  onLine: (m: ChatMessage) => void;
  notify: (text: string, tone?: 'error' | 'info') => void;
}): { warning: string | null; dismiss: () => void } {
  const [warning, setWarning] = useState<string | null>(null);
  useSocketEvent('turn_timed_out', (p) => {
    if (!p || p.gameId !== gameId) return;
    const t = timeoutTexts(p);
    notify(t.warning && !p.seatLost ? `${t.line} ${t.warning}` : t.line, 'error');
    const now = Date.now();
    onLine({
      id: `timeout-${now}-${p.timeouts}`,
      userId: 'system',
      username: 'System',
      message: t.line,
      timestamp: now,
      system: true,
    });
    if (t.warning) {
      onLine({
        id: `timeout-warning-${now}-${p.timeouts}`,
        userId: 'system',
        username: 'System',
        message: t.warning,
        timestamp: now,
        system: true,
      });
      if (p.seatLost) notify(t.warning, 'error');
    }
    setWarning(p.seatLost ? null : t.warning);
  });
  useEffect(() => {
    if (acted) setWarning(null);
  }, [acted]);
  return { warning, dismiss: () => setWarning(null) };
}
