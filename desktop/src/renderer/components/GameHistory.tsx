/**
 * "My games" (issue #12): the signed-in player's finished games (`GET /api/users/:id/games`, paged), newest first,
 * each opening its replay.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Film } from 'lucide-react';
import { formatCoins, toListItemRules, type GameHistoryItem, type GameHistoryPage } from '@spades/common';
import { api } from '../lib/api';
import { modeBadge } from '../lib/types';
import { replayPath } from '../replay/paths';
import { Spinner } from './ui';

const PAGE_SIZE = 10;

export function GameHistory({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['history', userId, page],
    queryFn: () =>
      api.get<GameHistoryPage>(`/api/users/${encodeURIComponent(userId)}/games?page=${page}&pageSize=${PAGE_SIZE}`),
  });
  if (q.isLoading) return <Spinner />;
  if (q.error || !q.data) return <p className="form-error">Failed to load your games.</p>;
  const { items, total } = q.data;
  if (!items.length && page === 1)
    return <p className="muted">No finished games yet. Play one and its replay appears here.</p>;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="history">
      <ul className="history-list" aria-label="My games">
        {items.map((g) => (
          <HistoryRow key={`${g.gameId}:${g.gameNumber}`} g={g} />
        ))}
      </ul>
      {pages > 1 && (
        <div className="history-pager">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setPage((p) => p - 1)}
            disabled={page <= 1}
          >
            Newer
          </button>
          <span className="muted small num">
            {page} / {pages}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setPage((p) => p + 1)}
            disabled={page >= pages}
          >
            Older
          </button>
        </div>
      )}
    </div>
  );
}

function HistoryRow({ g }: { g: GameHistoryItem }) {
  const badge = modeBadge({ forcedBid: toListItemRules(g.settings).forcedBid, gameType: g.settings.biddingOption });
  const names = (ps: GameHistoryItem['players']) => ps.map((p) => p.username).join(', ') || '—';
  const won = g.result === 'won';
  return (
    <li className={`history-row ${won ? 'won' : 'lost'}`}>
      <div className="history-main">
        <span className={`history-result ${won ? 'won' : 'lost'}`}>{won ? 'Won' : 'Lost'}</span>
        <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
        <span className="badge badge-dim">{g.mode}</span>
        {g.rated && <span className="badge badge-outline">Rated</span>}
        <span className="muted small">{new Date(g.finishedAt).toLocaleString()}</span>
      </div>
      <div className="history-detail small">
        {g.mode === 'PARTNERS' && <span>with {names(g.partners)}</span>}
        <span className="muted">vs {names(g.opponents)}</span>
      </div>
      <div className="history-numbers">
        <span className="num" title="Final score">
          {g.finalScores.join(' – ')}
        </span>
        {g.coins !== null && g.coins !== 0 && (
          <span className={`num ${g.coins > 0 ? 'gold' : 'neg'}`}>
            {g.coins > 0 ? `+${formatCoins(g.coins)}` : `−${formatCoins(-g.coins)}`}
          </span>
        )}
        {g.ratingChange !== null && (
          <span className="num">{g.ratingChange >= 0 ? `+${g.ratingChange}` : g.ratingChange} rating</span>
        )}
        <Link
          className="btn btn-secondary btn-sm"
          to={replayPath(g.gameId, g.gameNumber)}
          aria-label={`Replay of the game of ${new Date(g.finishedAt).toLocaleString()}`}
        >
          <Film size={15} /> Replay
        </Link>
      </div>
    </li>
  );
}
