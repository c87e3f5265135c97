import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  formatCoins,
  formatRating,
  LEADERBOARD_MIN_GAMES_FOR_WIN_RATE,
  type LeaderboardBy,
  type LeaderboardEntry,
} from '@spades/common';
import { Trophy } from 'lucide-react';
import { api } from '../lib/api';
import { useSession } from '../session/session';
import { Avatar, Spinner } from '../components/ui';
import { LobbyShell } from './LobbyPage';

type By = LeaderboardBy;

/** A row as shown: common's LeaderboardEntry, keyed by `id` (older servers sent `id`, current ones `userId`). */
type Entry = Omit<LeaderboardEntry, 'userId'> & { id: string };

function toEntry(raw: unknown, i: number): Entry | null {
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const id = String(o.id ?? o.userId ?? '');
  if (!id) return null;
  const played = n(o.gamesPlayed);
  const won = n(o.gamesWon ?? o.wins);
  const rate = typeof o.winRate === 'number' ? o.winRate : played ? (won / played) * 100 : 0;
  return {
    rank: n(o.rank) || i + 1,
    id,
    username: String(o.username ?? o.name ?? 'Player'),
    avatar: typeof o.avatar === 'string' ? o.avatar : null,
    coins: n(o.coins),
    gamesPlayed: played,
    gamesWon: won,
    winRate: Math.round(rate),
    rating: typeof o.rating === 'number' ? o.rating : null,
    provisional: o.provisional !== false,
  };
}

/** The leaderboard promised by the welcome dialog: GET /api/leaderboard?by=rating|coins|wins|winRate (rating first, issue #11). */
export function LeaderboardPage() {
  const { user } = useSession();
  const [by, setBy] = useState<By>('rating');
  const q = useQuery({
    queryKey: ['leaderboard', by],
    queryFn: async () => {
      const body = await api.get<unknown>(`/api/leaderboard?by=${by}`);
      const b = (body ?? {}) as Record<string, unknown>;
      const rows = Array.isArray(body)
        ? body
        : Array.isArray(b.entries)
          ? b.entries
          : Array.isArray(b.top)
            ? b.top
            : Array.isArray(b.leaders)
              ? b.leaders
              : [];
      const meRaw = b.me ?? b.self ?? b.own ?? b.caller ?? null;
      return { rows: rows.map(toEntry).filter((e): e is Entry => e !== null), me: toEntry(meRaw, -1) };
    },
  });
  return (
    <LobbyShell>
      <main className="page narrow-page">
        <section className="panel">
          <div className="section-head">
            <h1 className="h2">
              <Trophy size={22} className="gold" aria-hidden="true" /> Leaderboard
            </h1>
            <div className="segmented" role="radiogroup" aria-label="Rank by">
              {(
                [
                  ['rating', 'Rating'],
                  ['coins', 'Coins'],
                  ['wins', 'Wins'],
                  ['winRate', 'Win %'],
                ] as const
              ).map(([v, l]) => (
                <button
                  key={v}
                  type="button"
                  role="radio"
                  aria-checked={by === v}
                  className={by === v ? 'active' : ''}
                  onClick={() => setBy(v)}
                >
                  {l}
                </button>
              ))}
            </div>
          </div>
          {by === 'winRate' && (
            <p className="muted leaderboard-rule">
              Win % ranks players with at least {LEADERBOARD_MIN_GAMES_FOR_WIN_RATE} rated games (four humans at the
              table).
            </p>
          )}
          {q.isLoading ? (
            <div className="center pad-lg">
              <Spinner />
            </div>
          ) : q.isError ? (
            <p className="form-error">Could not load the leaderboard.</p>
          ) : (
            <table className="leaderboard">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Player</th>
                  <th scope="col" className="right">
                    Rating
                  </th>
                  <th scope="col" className="right">
                    Coins
                  </th>
                  <th scope="col" className="right">
                    Won
                  </th>
                  <th scope="col" className="right hide-narrow">
                    Played
                  </th>
                  <th scope="col" className="right">
                    Win %
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.data?.rows.length === 0 && (
                  <tr>
                    <td colSpan={7} className="muted center pad">
                      {by === 'rating'
                        ? 'No settled ratings yet: a rating counts here after about 20 rated games (four humans).'
                        : by === 'winRate'
                          ? `Nobody has played ${LEADERBOARD_MIN_GAMES_FOR_WIN_RATE} rated games yet.`
                          : 'No players yet.'}
                    </td>
                  </tr>
                )}
                {q.data?.rows.map((e) => (
                  <tr key={e.id} className={e.id === user?.id ? 'me' : ''}>
                    <td className="num rank">{e.rank}</td>
                    <td>
                      <span className="row gap-2">
                        <Avatar src={e.avatar} id={e.id} name={e.username} size={28} /> {e.username}
                      </span>
                    </td>
                    <td className="num right">{e.rating === null ? '—' : formatRating(e.rating, e.provisional)}</td>
                    <td className="num right gold">{formatCoins(e.coins)}</td>
                    <td className="num right">{e.gamesWon}</td>
                    <td className="num right hide-narrow">{e.gamesPlayed}</td>
                    <td className="num right">{e.winRate}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {q.data?.me && !q.data.rows.some((r) => r.id === q.data?.me?.id) && (
            <p className="muted small pad">
              Your rank: <strong className="num">{q.data.me.rank}</strong>
            </p>
          )}
        </section>
      </main>
    </LobbyShell>
  );
}
