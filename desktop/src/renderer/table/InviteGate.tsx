/**
 * `/table/:id?invite=<token>` (invite link) and `/table/:id?join=1` (Join on an in-app invitation), issue #12:
 * before the table page opens, the server seats the player with the invitation (or lets them watch when the table
 * is full), then the plain table route takes over. A wrong or revoked link seats nobody and says so.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { WireError, type ErrorCode } from '@spades/common';
import { api, refusalOf, type Refusal } from '../lib/api';
import { LoadingScreen, Logo } from '../components/ui';

export function InviteGate({ children }: { children: ReactNode }) {
  const { gameId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const invite = params.get('invite');
  const join = params.get('join') === '1';
  const [error, setError] = useState<Refusal | null>(null);
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
      .catch((e) => setError(refusalOf(e, 'This invitation is not valid')));
  }, [pending, gameId, invite, join, navigate]);

  if (!pending) return <>{children}</>;
  if (error) return <InvitationNeeded message={error.message} code={error.code} />;
  return <LoadingScreen text="Taking your seat…" />;
}

/**
 * Issue #31 item 6: the one page for a private table the player may not open (an invite link that is wrong or
 * revoked, `?join=1` without an invitation, or the table's plain address): what the server said, and what to do
 * (by the refusal's code, never its text: PRIVATE_GAME is a game that ended, anything else needs an invitation).
 */
export function InvitationNeeded({ message, code }: { message: string; code?: ErrorCode }) {
  const navigate = useNavigate();
  const ended = code === WireError.PRIVATE_GAME;
  return (
    <main className="loading-screen invitation-needed" role="alert" aria-labelledby="invitation-needed-title">
      <Logo size={48} />
      <h1 id="invitation-needed-title" className="h3">
        {message}
      </h1>
      <p className="muted">
        {ended
          ? 'Only the players of this game can see it.'
          : 'Ask the host for an invitation or a new invitation link.'}
      </p>
      <button type="button" className="btn btn-secondary" onClick={() => navigate('/', { replace: true })}>
        Back to lobby
      </button>
    </main>
  );
}
