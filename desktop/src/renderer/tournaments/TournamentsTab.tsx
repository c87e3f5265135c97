/**
 * Issue #27: the lobby's Tournaments tab — open / running / finished (GET /api/tournaments?status=…), Register (with
 * a partner from the friends list in PARTNERS) / Unregister, and "Create sit-and-go" when the host allows it.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Plus, Trophy } from 'lucide-react';
import type { PublicServerSettings, TournamentSummary } from '@spades/common';
import { ApiError, errorText } from '../lib/api';
import { useUsers } from '../lib/queries';
import { refreshPublicSettings, usePublicSettings } from '../lib/server-settings';
import { useSession } from '../session/session';
import { Spinner, useNotify } from '../components/ui';
import { LIST_STATUSES, type TournamentListStatus } from './bracket-model';
import { TournamentCard } from './TournamentCard';
import { CreateSitAndGoDialog, RegisterDialog } from './TournamentDialogs';
import { askWebNotificationPermission } from './MatchReady';
import { tournamentPath, useTournamentActions, useTournamentList } from './tournament-api';
import './tournaments.css';

/**
 * The host's switch (public settings `tournaments.playerSitAndGo`, default on); unknown (settings not loaded, or a
 * server older than tournaments) = offered: the server decides.
 */
export function sitAndGoAllowed(s: PublicServerSettings | null): boolean {
  return s?.tournaments?.playerSitAndGo !== false;
}

export const SIT_AND_GO_OFF = 'Players cannot create sit-and-gos on this server.';

export function TournamentsTab() {
  const { user, refreshProfile } = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  const users = useUsers();
  const settings = usePublicSettings();
  const actions = useTournamentActions();
  const [status, setStatus] = useState<TournamentListStatus>('open');
  const [createOpen, setCreateOpen] = useState(false);
  const [registerFor, setRegisterFor] = useState<TournamentSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const list = useTournamentList(status);
  const items = list.data ?? [];
  const friends = users.players.filter((p) => p.status === 'friend');
  const canCreate = sitAndGoAllowed(settings);

  const unregister = async (t: TournamentSummary) => {
    setBusy(t.id);
    try {
      await actions.unregister(t.id);
      notify(`Unregistered from ${t.name}`, 'info');
      void refreshProfile();
    } catch (e) {
      notify(errorText(e, 'Could not unregister'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="games-section tournaments-tab" aria-labelledby="tournaments-h">
      <div className="section-head">
        <h1 id="tournaments-h" className="h2">
          Tournaments
        </h1>
        <div className="segmented" role="radiogroup" aria-label="Tournament filter">
          {LIST_STATUSES.map((s) => (
            <button
              key={s.key}
              type="button"
              role="radio"
              aria-checked={status === s.key}
              className={status === s.key ? 'active' : ''}
              onClick={() => setStatus(s.key)}
            >
              {s.label}
            </button>
          ))}
        </div>
        {canCreate ? (
          <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
            <Plus size={18} /> Create sit-and-go
          </button>
        ) : (
          <span className="muted small" data-testid="sit-and-go-off">
            {SIT_AND_GO_OFF}
          </span>
        )}
      </div>
      {list.isLoading ? (
        <div className="center pad-lg">
          <Spinner label="Loading tournaments" />
        </div>
      ) : list.error ? (
        <p className="form-error" role="alert">
          {errorText(list.error, 'Could not load the tournaments')}
        </p>
      ) : items.length === 0 ? (
        <div className="empty-state">
          <Trophy size={40} aria-hidden="true" />
          <p className="h3">No {status} tournaments</p>
          <p className="muted">
            {status === 'open'
              ? canCreate
                ? 'Create a sit-and-go: it starts as soon as it is full.'
                : 'Tournaments the staff schedule show here.'
              : status === 'running'
                ? 'Tournaments being played show here with their live bracket.'
                : 'Finished tournaments and their winners show here.'}
          </p>
        </div>
      ) : (
        <div className="game-grid">
          {items.map((t) => (
            <TournamentCard
              key={t.id}
              t={t}
              registered={t.me?.registered}
              busy={busy === t.id}
              onRegister={() => setRegisterFor(t)}
              onUnregister={() => void unregister(t)}
            />
          ))}
        </div>
      )}
      <RegisterDialog
        t={registerFor}
        friends={friends}
        coins={user?.coins}
        onClose={() => setRegisterFor(null)}
        onRegister={async (partnerId) => {
          if (!registerFor) return;
          await actions.register(registerFor.id, partnerId ? { partnerId } : {});
          askWebNotificationPermission(); // the match-ready notice in the browser
          notify(`Registered for ${registerFor.name}`, 'info');
          void refreshProfile();
        }}
      />
      <CreateSitAndGoDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        onCreate={async (input) => {
          try {
            const v = await actions.create(input);
            navigate(tournamentPath(v.id));
          } catch (e) {
            // the host switched player sit-and-gos off since the settings were read: show it without a reload
            if (e instanceof ApiError && e.status === 403) void refreshPublicSettings();
            throw e;
          }
        }}
      />
    </section>
  );
}
