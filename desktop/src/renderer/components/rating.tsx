/**
 * Skill ratings in the client (issue #11): `RatingBadge` next to names (lobby seats, table seats, stats dialog) with
 * the completion rate in its tooltip, the per-game change line of the result dialog, the rating history chart of the
 * profile and the rated-table ban notice. Ratings come from GET /api/ratings (batched: every badge rendered in the
 * same tick shares one request); formatting rules from common.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  formatRating,
  formatRatingChange,
  type GameRatingChange,
  type RatingHistoryPoint,
  type RatingSummary,
} from '@spades/common';
import { api } from '../lib/api';

// A small cache of its own (no react-query): the badges also render inside the table page, which has no query client.
const STALE_MS = 15_000;
const cache = new Map<string, { data: RatingSummary | null; at: number }>();
const inflight = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;
const notify = () => {
  version++;
  listeners.forEach((l) => l());
};
let batch: Set<string> | null = null;

/** Every rating requested in the same tick goes out as one GET /api/ratings?ids=… (at most 50 per request). */
function load(id: string): void {
  if (inflight.has(id)) return;
  inflight.add(id);
  if (!batch) {
    const ids = new Set<string>();
    batch = ids;
    setTimeout(() => {
      batch = null;
      const all = [...ids];
      for (let i = 0; i < all.length; i += 50) {
        const chunk = all.slice(i, i + 50);
        api
          .get<{ ratings?: RatingSummary[] }>(`/api/ratings?ids=${chunk.map(encodeURIComponent).join(',')}`)
          .then((body) => {
            const got = new Map((Array.isArray(body?.ratings) ? body.ratings : []).map((r) => [r.userId, r]));
            for (const u of chunk) cache.set(u, { data: got.get(u) ?? null, at: Date.now() });
          })
          .catch(() => {
            for (const u of chunk) cache.set(u, { data: cache.get(u)?.data ?? null, at: Date.now() });
          })
          .finally(() => {
            chunk.forEach((u) => inflight.delete(u));
            notify();
          });
      }
    }, 0);
  }
  batch.add(id);
}

/** Marks every cached rating stale: mounted badges fetch again (after a settlement). */
export function invalidateRatings(): void {
  for (const [k, v] of cache) cache.set(k, { ...v, at: 0 });
  notify();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** The rating card of a user (null until loaded, or for unknown ids). */
export function useRating(userId: string | null | undefined): { data: RatingSummary | null } {
  useSyncExternalStore(subscribe, () => version);
  const entry = userId ? cache.get(userId) : undefined;
  const stale = !!userId && (!entry || Date.now() - entry.at > STALE_MS);
  useEffect(() => {
    if (userId && stale) load(userId);
  }, [userId, stale]);
  return { data: entry?.data ?? null };
}

/** Tooltip text: rating, provisional note and completion rate. */
export function ratingTitle(r: RatingSummary): string {
  const completion =
    r.completionRate === null
      ? 'no rated games yet'
      : `completion ${r.completionRate}% (${r.gamesFinished} of ${r.gamesStarted} rated games finished)`;
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
export function RatingChangeLine({
  gameId,
  gameNumber,
  names,
}: {
  gameId: string;
  gameNumber: number;
  names: (seat: number) => string;
}) {
  const [changes, setChanges] = useState<GameRatingChange[]>([]);
  useEffect(() => {
    let stop = false;
    let tries = 0;
    const poll = async () => {
      try {
        const body = await api.get<{ changes?: GameRatingChange[] }>(
          `/api/ratings/games/${encodeURIComponent(gameId)}/${gameNumber}`,
        );
        const got = Array.isArray(body?.changes) ? body.changes : [];
        if (got.length && !stop) {
          setChanges(got);
          invalidateRatings();
          return;
        }
      } catch {
        // keep polling a few times
      }
      if (!stop && ++tries < 40) setTimeout(() => void poll(), 500);
    };
    void poll();
    return () => {
      stop = true;
    };
  }, [gameId, gameNumber]);
  if (!changes.length) return null;
  // issue #31: labelled "Rating 1500? → 1382? (−118)", and the provisional mark explained where it appears
  const provisional = changes.some((c) => c.provisionalBefore || c.provisionalAfter);
  return (
    <div className="result-ratings" data-testid="rating-changes" role="group" aria-label="Rating changes">
      {changes.map((c) => (
        <span key={c.userId} className={`rating-change ${c.delta > 0 ? 'up' : c.delta < 0 ? 'down' : ''}`}>
          {names(c.seat)}{' '}
          <span className="num">
            Rating {formatRating(c.ratingBefore, c.provisionalBefore === true)} →{' '}
            {formatRating(c.ratingAfter, c.provisionalAfter === true)}
          </span>{' '}
          (<strong className="num">{formatRatingChange(c.delta)}</strong>)
          {c.left && <span className="muted small"> (left)</span>}
        </span>
      ))}
      {provisional && (
        <p className="muted small rating-note" data-testid="provisional-note">
          ? = provisional: a new rating moves fast and settles after about 20 rated games.
        </p>
      )}
    </div>
  );
}

/** Rating after each rated game, as an SVG line (oldest left). */
export function RatingHistoryChart({ userId }: { userId: string }) {
  const [data, setData] = useState<{ history: RatingHistoryPoint[] } | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<{ history?: RatingHistoryPoint[] }>(`/api/ratings/${encodeURIComponent(userId)}/history`)
      .then((b) => live && setData({ history: Array.isArray(b?.history) ? b.history : [] }))
      .catch(() => live && setData({ history: [] }));
    return () => {
      live = false;
    };
  }, [userId]);
  const q = { data };
  const h = q.data?.history ?? [];
  if (!q.data) return null;
  if (h.length === 0)
    return <p className="muted small">No rated games yet: play a table of four humans to get a rating.</p>;
  const W = 560;
  const H = 160;
  const pad = 28;
  const padL = 48; // room for four-digit labels
  const values = [h[0].rating - h[0].delta, ...h.map((p) => p.rating)];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = Math.max(1, max - min);
  const x = (i: number) => padL + (i * (W - padL - pad)) / Math.max(1, values.length - 1);
  const y = (v: number) => H - pad - ((v - min) * (H - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <figure className="rating-chart" data-testid="rating-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Rating history: ${values.length - 1} rated games, now ${values[values.length - 1]}`}
      >
        <line x1={padL} x2={W - pad} y1={y(min)} y2={y(min)} className="rc-axis" />
        <line x1={padL} x2={W - pad} y1={y(max)} y2={y(max)} className="rc-axis" />
        <text x={4} y={y(max) + 4} className="rc-label">
          {max}
        </text>
        <text x={4} y={y(min) + 4} className="rc-label">
          {min}
        </text>
        <polyline points={points} className="rc-line" fill="none" />
        {values.map((v, i) => (
          <circle key={i} cx={x(i)} cy={y(v)} r={3} className={i > 0 && h[i - 1].left ? 'rc-dot left' : 'rc-dot'}>
            <title>
              {i === 0
                ? `Start ${v}`
                : `${new Date(h[i - 1].at).toLocaleString()}: ${v} (${formatRatingChange(h[i - 1].delta)})${h[i - 1].left ? ', left' : ''}`}
            </title>
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
      <strong>{until.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}</strong>. Tables with a bot stay
      open.
    </div>
  );
}
