/**
 * `/table/:id?invite=<token>` (invite link) and `/table/:id?join=1` (Join on an in-app invitation), issue #12:
 * before the table page opens, the server seats the player with the invitation (or lets them watch when the table
 * is full), then the plain table route takes over. A wrong or revoked link seats nobody and says so.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, errorText } from '../lib/api';
import { LoadingScreen, Logo } from '../components/ui';

export function InviteGate({ children }: { children: ReactNode }) {
  const { gameId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const invite = params.get('invite');
  const join = params.get('join') === '1';
  const [error, setError] = useState<string | null>(null);
  const started = useRef<string | null>(null);
  const pending = invite !== null || join;

  useEffect(() => {
    if (!pending) return;
    const key = `${gameId}:${invite ?? ''}:${join}`;
    if (started.current === key) return;
    started.current = key;
    setError(null);
    api
      .post(`/api/games/${encodeURIComponent(gameId)}/join`, invite ? { invite } : {})
      .then(() => navigate(`/table/${encodeURIComponent(gameId)}`, { replace: true }))
      .catch((e) => setError(errorText(e, 'This invitation is not valid')));
  }, [pending, gameId, invite, join, navigate]);

  if (!pending) return <>{children}</>;
  if (error) {
    return (
      <div className="loading-screen" role="alert">
        <Logo size={48} />
        <p className="h3">{error}</p>
        <p className="muted">Ask the host for a new invitation link.</p>
        <button type="button" className="btn btn-secondary" onClick={() => navigate('/', { replace: true })}>
          Back to lobby
        </button>
      </div>
    );
  }
  return <LoadingScreen text="Taking your seat…" />;
}
