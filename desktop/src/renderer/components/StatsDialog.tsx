import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatCoins, formatCoinsExact } from '@spades/common';
import { api } from '../lib/api';
import { normalizeStats, type SocialStatus, type Stats } from '../lib/types';
import { bagsPerGame, percent, statsPercentages } from '../lib/stats';
import { Avatar, CoinIcon, Modal, Spinner } from './ui';
import { ACTION_LABEL, actionsFor, useSocialActions } from './social';
import { RatingBadge, RatingRows } from './rating';
import { ReportButton } from '../moderation/ReportButton';
import { MuteButton } from '../moderation/MuteButton';

export type StatsMode = 'ALL' | 'PARTNERS' | 'SOLO';

export function useStats(userId: string | undefined, mode: StatsMode) {
  return useQuery({
    queryKey: ['stats', userId, mode],
    enabled: !!userId,
    queryFn: async (): Promise<{ stats: Stats; failed: boolean }> => {
      try {
        const q = mode === 'ALL' ? '' : `?mode=${mode}`;
        const body = await api.get<unknown>(`/api/users/${encodeURIComponent(userId!)}/stats${q}`);
        const raw = body && typeof body === 'object' && 'stats' in body ? (body as { stats: unknown }).stats : body;
        return { stats: normalizeStats(raw), failed: false };
      } catch {
        // §8: when stats fail to load, zeroed stats are shown.
        return { stats: normalizeStats({}), failed: true };
      }
    },
  });
}

function Row({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stat-row">
      <span className="muted">{label}</span>
      <strong className="num">{value}</strong>
    </div>
  );
}

export function StatsView({ stats }: { stats: Stats }) {
  const pct = statsPercentages(stats);
  const modes: [string, number, number][] = [
    ['Regular', stats.regPlayed, stats.regWon],
    ['Whiz', stats.whizPlayed, stats.whizWon],
    ['Mirrors', stats.mirrorPlayed, stats.mirrorWon],
    ['Gimmick', stats.gimmickPlayed, stats.gimmickWon],
  ];
  const specials: [string, number, number][] = [
    ['Screamer', stats.screamerPlayed, stats.screamerWon],
    ['Assassin', stats.assassinPlayed, stats.assassinWon],
  ];
  return (
    <div className="stats-view">
      <div className="stat-tiles">
        <div className="stat-tile">
          <span className="muted small">Win %</span>
          <strong className="num big" data-testid="win-pct">
            {pct.winPct}%
          </strong>
        </div>
        <div className="stat-tile">
          <span className="muted small">Rated games played</span>
          <strong className="num big" data-testid="games-played">
            {stats.gamesPlayed}
          </strong>
        </div>
        <div className="stat-tile">
          <span className="muted small">Rated games won</span>
          <strong className="num big">{stats.gamesWon}</strong>
        </div>
      </div>
      <div className="stat-columns">
        <section>
          <h3 className="h4">Bags</h3>
          <Row label="Bags" value={stats.totalBags} />
          <Row label="Bags per game" value={bagsPerGame(stats)} />
          <h3 className="h4">Won / played by mode</h3>
          {modes.map(([l, p, w]) => (
            <Row key={l} label={l} value={`${w} / ${p}`} />
          ))}
          <h3 className="h4">Special rules</h3>
          {specials.map(([l, p, w]) => (
            <Row key={l} label={l} value={`${w} / ${p}`} />
          ))}
        </section>
        <section>
          <h3 className="h4">Nil</h3>
          <Row label="Nils bid" value={stats.nilsBid} />
          <Row label="Nils made" value={stats.nilsMade} />
          <Row label="Nil % made" value={`${pct.nilPct}%`} />
          <h3 className="h4">Blind nil</h3>
          <Row label="Blind nils bid" value={stats.blindNilsBid} />
          <Row label="Blind nils made" value={stats.blindNilsMade} />
          <Row label="Blind nil % made" value={`${percent(stats.blindNilsMade, stats.blindNilsBid)}%`} />
        </section>
      </div>
    </div>
  );
}

export interface StatsTarget {
  id: string;
  username: string;
  avatar?: string | null;
  coins?: number;
  status?: SocialStatus;
}

/** §2 player stats dialog. Clarification 4: the ALL/PARTNERS/SOLO filter really filters; clarification 5: friend buttons act. */
export function StatsDialog({
  target,
  selfId,
  onOpenChange,
}: {
  target: StatsTarget | null;
  selfId: string | undefined;
  onOpenChange: (o: boolean) => void;
}) {
  const [mode, setMode] = useState<StatsMode>('ALL');
  // Opening another player starts again at ALL (state adjusted while rendering, React's pattern for prop changes).
  const [modeFor, setModeFor] = useState(target?.id);
  if (modeFor !== target?.id) {
    setModeFor(target?.id);
    setMode('ALL');
  }
  const q = useStats(target?.id, modeFor === target?.id ? mode : 'ALL');
  const social = useSocialActions();
  const isSelf = target?.id === selfId;
  return (
    <Modal
      open={target !== null}
      onOpenChange={onOpenChange}
      title={isSelf ? 'My Stats' : 'Player Stats'}
      className="modal-md"
    >
      {target && (
        <>
          <div className="stats-head">
            <Avatar src={target.avatar} id={target.id} name={target.username} size={56} />
            <div>
              <div className="h3">
                {target.username} <RatingBadge userId={target.id} />
              </div>
              {target.coins !== undefined && (
                <div className="coins">
                  <CoinIcon />{' '}
                  <span className="num" title={`${formatCoinsExact(target.coins)} coins`}>
                    {formatCoins(target.coins)}
                  </span>{' '}
                  <span className="muted small">({formatCoinsExact(target.coins)})</span>
                </div>
              )}
            </div>
            <RatingRows userId={target.id} />
            <div className="segmented small" role="radiogroup" aria-label="Game mode filter">
              {(['ALL', 'PARTNERS', 'SOLO'] as const).map((m) => (
                <button
                  key={m}
                  type="button"
                  role="radio"
                  aria-checked={mode === m}
                  className={mode === m ? 'active' : ''}
                  onClick={() => setMode(m)}
                >
                  {m}
                </button>
              ))}
            </div>
          </div>
          {q.isLoading || !q.data ? (
            <div className="center pad">
              <Spinner />
            </div>
          ) : (
            <StatsView stats={q.data.stats} />
          )}
          {!isSelf && (
            <div className="modal-actions">
              {actionsFor(target.status ?? 'none').map((a) => (
                <button
                  key={a}
                  type="button"
                  className={`btn ${a === 'block' ? 'btn-danger-ghost' : 'btn-secondary'}`}
                  onClick={() => social.ask(a, target)}
                >
                  {ACTION_LABEL[a]}
                </button>
              ))}
              {/* Issue #25: report from the player's profile */}
              <MuteButton userId={target.id} username={target.username} />
              <ReportButton
                userId={target.id}
                username={target.username}
                context={{ kind: 'profile' }}
                className="btn btn-ghost"
              />
            </div>
          )}
          {social.dialog}
        </>
      )}
    </Modal>
  );
}
