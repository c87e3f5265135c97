/**
 * Issue #27: `tournament_match_ready` anywhere in the app — the native `tournament-match` notification in the desktop
 * app (bridge; a click takes the seat), a web Notification in the browser (when the player allowed them and the page is
 * not in front; a click takes the seat), the match call sound, and an in-app card with
 * "Take your seat" and the seat deadline. The card goes when the deadline passes, when the player takes the seat or
 * hides it, or when they are already at that table.
 */
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Trophy, X } from 'lucide-react';
import type { TournamentMatchReady } from '@spades/common';
import { notifyDesktop } from '../lib/notifications';
import { bridge } from '../lib/platform';
import { play } from '../lib/sound';
import { useSession } from '../session/session';
import { useSocketEvent } from '../socket/socket';
import { countdown } from './bracket-model';
import { isMatchReady, seatPath, tournamentPath } from './tournament-api';
import { useNow } from './use-now';
import './tournaments.css';

export function matchReadyText(m: TournamentMatchReady): { title: string; body: string } {
  return {
    title: `${m.name}: your match is ready`,
    body: `Round ${m.round}: take your seat before the deadline or the match is forfeited.`,
  };
}

/** The browser's Notification, when there is no desktop bridge and the player allowed it. Never throws. */
export function notifyWeb(title: string, body: string, onClick?: () => void): boolean {
  if (bridge() || typeof window === 'undefined' || typeof window.Notification !== 'function') return false;
  if (window.Notification.permission !== 'granted') return false;
  if (typeof document !== 'undefined' && document.hasFocus()) return false; // the in-app card is enough
  try {
    const n = new window.Notification(title, { body, tag: 'tournament-match' });
    n.onclick = () => {
      window.focus();
      onClick?.();
      n.close();
    };
    return true;
  } catch {
    return false;
  }
}

/** Asks the browser for notification permission once (on registering for a tournament); no-op in the app. */
export function askWebNotificationPermission(): void {
  if (bridge() || typeof window === 'undefined' || typeof window.Notification !== 'function') return;
  if (window.Notification.permission !== 'default') return;
  try {
    void Promise.resolve(window.Notification.requestPermission()).catch(() => undefined);
  } catch {
    /* best effort */
  }
}

export function MatchReadyHost() {
  const { user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [ready, setReady] = useState<TournamentMatchReady[]>([]);
  const now = useNow(1000);
  useSocketEvent('tournament_match_ready', (p) => {
    if (!isMatchReady(p)) return;
    setReady((l) => [p, ...l.filter((x) => x.matchId !== p.matchId || x.tournamentId !== p.tournamentId)]);
    const { title, body } = matchReadyText(p);
    notifyDesktop({ kind: 'tournament-match', title, body, gameId: p.gameId, tournamentId: p.tournamentId });
    notifyWeb(title, body, () => navigate(`${seatPath(p.gameId)}?join=1`));
    play('match');
  });
  const atTable = (gameId: string) => location.pathname === seatPath(gameId);
  const shown = ready.filter((m) => m.seatDeadline > now && !atTable(m.gameId));
  if (!user || shown.length === 0) return null;
  const drop = (m: TournamentMatchReady) => setReady((l) => l.filter((x) => x !== m));
  return (
    <div className="invitations match-ready" aria-live="assertive">
      {shown.slice(0, 2).map((m) => (
        <div key={`${m.tournamentId}:${m.matchId}`} className="invitation" role="alertdialog" aria-label={m.name}>
          <span className="match-ready-icon" aria-hidden="true">
            <Trophy size={20} />
          </span>
          <div className="invitation-text">
            <strong>{matchReadyText(m).title}</strong>
            <span className="small">
              Round {m.round} · seat within <span className="num">{countdown(m.seatDeadline - now)}</span>
            </span>
            <div className="row gap-2">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  drop(m);
                  navigate(tournamentPath(m.tournamentId));
                }}
              >
                Bracket
              </button>
              <button
                type="button"
                className="btn btn-gold btn-sm"
                onClick={() => {
                  drop(m);
                  navigate(`${seatPath(m.gameId)}?join=1`);
                }}
              >
                Take your seat
              </button>
            </div>
          </div>
          <button type="button" className="icon-btn" aria-label="Hide" onClick={() => drop(m)}>
            <X size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
