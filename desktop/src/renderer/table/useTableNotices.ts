/** Desktop app: native notifications when the window is in the background (the main process decides to show). */
import { useEffect, useRef } from 'react';
import { notifyDesktop } from '../lib/notifications';
import type { TableModel } from './model';

export function useTableNotices(gameId: string, table: TableModel | null, isMyTurn: boolean, seated: boolean): void {
  useEffect(() => {
    if (!isMyTurn || !table) return;
    notifyDesktop({
      kind: 'your-turn',
      title: 'Your turn',
      body: table.status === 'BIDDING' ? 'Time to bid.' : 'Time to play a card.',
      gameId,
    });
  }, [isMyTurn, table?.status, gameId]);

  const prevStatus = useRef<string | null>(null);
  useEffect(() => {
    const status = table?.status ?? null;
    if (prevStatus.current === 'WAITING' && status === 'BIDDING' && seated) {
      notifyDesktop({
        kind: 'game-starting',
        title: 'Your game is starting',
        body: 'The cards are being dealt.',
        gameId,
      });
    }
    prevStatus.current = status;
  }, [table?.status, seated, gameId]);
}
