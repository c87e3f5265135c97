/** The table's settings in a popover from the header: mode, bidding, points, buy-in, rules, the deal commitment. */
import { Popover } from 'radix-ui';
import { Info } from 'lucide-react';
import { formatCoins } from '@spades/common';
import type { TableModel } from './model';

export function TableDetails({ table, badge }: { table: TableModel; badge: { label: string; tone: string } }) {
  const rules = table.settings.specialRules;
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn" aria-label="Table details">
        <Info size={18} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" sideOffset={6} align="start">
          <h3 className="h4" style={{ marginTop: 0 }}>
            Table details
          </h3>
          <div className="stat-row">
            <span className="muted">Mode</span>
            <span>{table.gameMode}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Bidding</span>
            <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Points</span>
            <span className="num">
              {table.minPoints} / {table.maxPoints}
            </span>
          </div>
          <div className="stat-row">
            <span className="muted">Buy-in</span>
            <span className="gold num">{formatCoins(table.buyIn)}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Nil / Blind nil</span>
            <span>
              {rules.allowNil ? 'yes' : 'no'} / {rules.allowBlindNil ? 'yes' : 'no'}
            </span>
          </div>
          <div className="stat-row">
            <span className="muted">Special</span>
            <span>{rules.assassin ? 'ASSASSIN' : rules.screamer ? 'SCREAMER' : '—'}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Rated</span>
            <span>{table.rated ? 'yes' : 'no'}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Hand</span>
            <span className="num">{table.handNumber || '—'}</span>
          </div>
          {table.handCommitment && (
            <div className="stat-row">
              <span className="muted">Deal commitment</span>
              <span className="mono small" title={table.handCommitment}>
                {table.handCommitment.slice(0, 16)}…
              </span>
            </div>
          )}
          <Popover.Arrow className="popover-arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
