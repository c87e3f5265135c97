/** Before the start: how many are seated, and the host's Start button (the others wait for the host). */
import { formatCoins } from '@spades/common';
import type { TableModel } from './model';

export interface WaitingPanelProps {
  table: TableModel;
  isHost: boolean;
  hostName: string;
  starting: boolean;
  onStart: () => void;
}

export function WaitingPanel({ table, isHost, hostName, starting, onStart }: WaitingPanelProps) {
  return (
    <div className="table-panel waiting-panel" role="region" aria-label="Waiting for players">
      <h2 className="panel-title">{isHost ? 'Your table' : 'Waiting for Host'}</h2>
      <p className="muted small">
        {table.seats.filter(Boolean).length}/4 seated · buy-in <span className="gold">{formatCoins(table.buyIn)}</span>
      </p>
      {isHost ? (
        <button type="button" className="btn btn-primary" onClick={onStart} disabled={starting}>
          {starting ? 'Starting…' : 'Start Game'}
        </button>
      ) : (
        <p className="muted">Only {hostName} can start</p>
      )}
    </div>
  );
}
