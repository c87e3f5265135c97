/** The replay's top bar: back, the game's badges and date, the score, and the JSON download. */
import { Link } from 'react-router';
import { ArrowLeft, Download } from 'lucide-react';
import { formatCoins, toListItemRules, type GameReplay } from '@spades/common';
import { modeBadge } from '../lib/types';
import { Logo } from '../components/ui';
import { ScoreBoard } from '../table/ScoreBoard';
import type { TableModel } from '../table/model';

export function ReplayHeader({
  doc,
  table,
  onDownload,
}: {
  doc: GameReplay;
  table: TableModel;
  onDownload: () => void;
}) {
  const rules = toListItemRules(doc.settings);
  const badge = modeBadge({ forcedBid: rules.forcedBid, gameType: doc.settings.biddingOption });
  return (
    <header className="table-top replay-top">
      <Link to="/profile" className="btn btn-ghost btn-sm" aria-label="Back">
        <ArrowLeft size={16} /> <span className="hide-narrow">Back</span>
      </Link>
      <Logo size={26} />
      <div className="table-title">
        <h1 className="replay-title">Replay</h1>
        <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
        <span className="badge badge-dim">{doc.settings.gameMode}</span>
        {doc.rated && <span className="gold num hide-narrow">{formatCoins(doc.settings.buyIn)}</span>}
        <span className="muted small hide-narrow">{new Date(doc.finishedAt).toLocaleString()}</span>
      </div>
      <div className="table-top-right">
        <span className="hide-narrow">
          <ScoreBoard table={table} />
        </span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onDownload}>
          <Download size={16} /> <span className="hide-narrow">JSON</span>
        </button>
      </div>
    </header>
  );
}
