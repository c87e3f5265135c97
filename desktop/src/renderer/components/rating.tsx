/**
 * Skill ratings in the client (issue #11): `RatingBadge` next to names (lobby seats, table seats, stats dialog) with
 * the completion rate in its tooltip, the per-game change line of the result dialog, the rating history chart of the
 * profile and the rated-table ban notice. Ratings come from GET /api/ratings (batched: every badge rendered in the
 * same tick shares one request); formatting rules from common.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatRating, formatRatingChange, type GameRatingChange, type RatingHistoryPoint, type RatingSummary } from '@spades/common';
import { api } from '../lib/api';

let pending: { ids: Set<string>; waiters: ((m: Map<string, RatingSummary>) => void)[]; fail: ((e: unknown) => void)[] } | null = null;

/** Every rating requested in the same tick goes out as one GET /api/ratings?ids=… (at most 50 per request). */
function loadRating(id: string): Promise<RatingSummary | null> {
  if (!pending) {
    const batch = { ids: new Set<string>(), waiters: [] as ((m: Map<string, RatingSummary>) => void)[], fail: [] as ((e: unknown) => void)[] };
    pending = batch;
    setTimeout(() => {
      pending = null;
      const ids = [...batch.ids];
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += 50) chunks.push(ids.slice(i, i + 50));
      Promise.all(chunks.map((c) => api.get<{ ratings: RatingSummary[] }>(`/api/ratings?ids=${c.map(encodeURIComponent).join(',')}`)))
        .then((bodies) => {
          const m = new Map<string, RatingSummary>();
          for (const b of bodies) for (const r of b?.ratings ?? []) m.set(r.userId, r);
          batch.waiters.forEach((w) => w(m));
        })
        .catch((e) => batch.fail.forEach((f) => f(e)));
    }, 0);
  }
  const batch = pending;
  batch.ids.add(id);
  return new Promise((resolve, reject) => {
    batch.waiters.push((m) => resolve(m.get(id) ?? null));
    batch.fail.push(reject);
  });
}

export function useRating(userId: string | null | undefined) {
  return useQuery({
    queryKey: ['rating', userId],
    enabled: !!userId,
    staleTime: 15_000,
    queryFn: () => loadRating(userId as string),
  });
}

/** Tooltip text: rating, provisional note and completion rate. */
export function ratingTitle(r: RatingSummary): string {
  const completion =
    r.completionRate === null ? 'no rated games yet' : `completion ${r.completionRate}% (${r.gamesFinished} of ${r.gamesStarted} rated games finished)`;
  return `Rating ${r.rating}${r.provisional ? ' (provisional)' : ''} · ${completion}`;
}

/** `1618?` next to a player's name; the tooltip carries the completion rate. Nothing for bots or before loading. */
export function RatingBadge({ userId, className = '' }: { userId: string | null | undefined; className?: string }) {
  const q = useRating(userId);
  const r = q.data;
  if (!r) return null;
  return (
    <span
      className={`rating-badge num ${r.provisional ? 'provisional' : ''} ${className}`}
      title={ratingTitle(r)}
      aria-label={`rating ${formatRating(r.rating, r.provisional)}${r.completionRate === null ? '' : `, completion ${r.completionRate}%`}`}
      data-testid="rating-badge"
    >
      {formatRating(r.rating, r.provisional)}
    </span>
  );
}

/** Rating and completion rate rows for the stats dialog and the profile. */
export function RatingRows({ userId }: { userId: string }) {
  const q = useRating(userId);
  const r = q.data;
  if (!r) return null;
  return (
    <div className="rating-rows" data-testid="rating-rows">
      <div className="stat-tile">
        <span className="muted small">Rating</span>
        <strong className="num big">{formatRating(r.rating, r.provisional)}</strong>
        {r.provisional && <span className="muted small">provisional</span>}
      </div>
      <div className="stat-tile" title={ratingTitle(r)}>
        <span className="muted small">Completion rate</span>
        <strong className="num big">{r.completionRate === null ? '—' : `${r.completionRate}%`}</strong>
        <span className="muted small">
          {r.gamesFinished} / {r.gamesStarted} rated games
        </span>
      </div>
    </div>
  );
}

/**
 * The rating change line of the result dialog (+14 / −9 per player). Polls until the settlement wrote the
 * changes, then refreshes the badges.
 */
export function RatingChangeLine({ gameId, gameNumber, names }: { gameId: string; gameNumber: number; names: (seat: number) => string }) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['rating-changes', gameId, gameNumber],
    queryFn: async () => {
      const body = await api.get<{ changes: GameRatingChange[] }>(`/api/ratings/games/${encodeURIComponent(gameId)}/${gameNumber}`);
      const changes = body?.changes ?? [];
      if (changes.length) void qc.invalidateQueries({ queryKey: ['rating'] });
      return changes;
    },
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 || query.state.dataUpdateCount > 40 ? false : 500),
  });
  const changes = q.data ?? [];
  if (!changes.length) return null;
  return (
    <div className="result-ratings" data-testid="rating-changes" aria-label="Rating changes">
      {changes.map((c) => (
        <span key={c.userId} className={`rating-change ${c.delta > 0 ? 'up' : c.delta < 0 ? 'down' : ''}`}>
          {names(c.seat)} <strong className="num">{formatRatingChange(c.delta)}</strong>
          {c.left && <span className="muted small"> (left)</span>}
        </span>
      ))}
    </div>
  );
}

/** Rating after each rated game, as an SVG line (oldest left). */
export function RatingHistoryChart({ userId }: { userId: string }) {
  const q = useQuery({
    queryKey: ['rating-history', userId],
    queryFn: () => api.get<{ summary: RatingSummary; history: RatingHistoryPoint[] }>(`/api/ratings/${encodeURIComponent(userId)}/history`),
  });
  const h = q.data?.history ?? [];
  if (!q.data) return null;
  if (h.length === 0) return <p className="muted small">No rated games yet: play a table of four humans to get a rating.</p>;
  const W = 560;
  const H = 160;
  const pad = 28;
  const values = [h[0].rating - h[0].delta, ...h.map((p) => p.rating)];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = Math.max(1, max - min);
  const x = (i: number) => pad + (i * (W - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v: number) => H - pad - ((v - min) * (H - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <figure className="rating-chart" data-testid="rating-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Rating history: ${values.length - 1} rated games, now ${values[values.length - 1]}`}>
        <line x1={pad} x2={W - pad} y1={y(min)} y2={y(min)} className="rc-axis" />
        <line x1={pad} x2={W - pad} y1={y(max)} y2={y(max)} className="rc-axis" />
        <text x={4} y={y(max) + 4} className="rc-label">
          {max}
        </text>
        <text x={4} y={y(min) + 4} className="rc-label">
          {min}
        </text>
        <polyline points={points} className="rc-line" fill="none" />
        {values.map((v, i) => (
          <circle key={i} cx={x(i)} cy={y(v)} r={3} className={i > 0 && h[i - 1].left ? 'rc-dot left' : 'rc-dot'}>
            <title>{i === 0 ? `Start ${v}` : `${new Date(h[i - 1].at).toLocaleString()}: ${v} (${formatRatingChange(h[i - 1].delta)})${h[i - 1].left ? ', left' : ''}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}

/** Lobby notice while the signed-in player is banned from rated tables (with the end time in local time). */
export function RatedBanNotice({ userId }: { userId: string | undefined }) {
  const q = useRating(userId);
  const until = q.data?.bannedUntil ? new Date(q.data.bannedUntil) : null;
  if (!until || until.getTime() <= Date.now()) return null;
  return (
    <div className="ban-notice" role="alert" data-testid="ban-notice">
      You abandoned too many rated games: you may not play at rated tables (four humans) until{' '}
      <strong>{until.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}</strong>. Tables with a bot stay open.
    </div>
  );
}
