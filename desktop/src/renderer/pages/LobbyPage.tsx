import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { MessageSquare, Plus, Users, LayoutGrid, Spade, Trophy } from 'lucide-react';
import { toCreateGameRequest, type GameSettings } from '@spades/common';
import { useSession } from '../session/session';
import { useSocket, useSocketEvent, type SpecIdentity } from '../socket/socket';
import { api, errorText } from '../lib/api';
import { useGames, useUsers } from '../lib/queries';
import { blockedIds, withoutBlocked } from '../lib/blocked';
import { isWelcomeDismissed, setWelcomeDismissed } from '../lib/storage';
import type { GameListItem, LobbyPlayer } from '../lib/types';
import { Header } from '../components/Header';
import { GameCard } from '../components/GameCard';
import { CreateGameDialog } from '../components/CreateGameDialog';
import { ChatPanel } from '../components/ChatPanel';
import { PlayersList } from '../components/PlayersList';
import { GameRulesDialog } from '../components/GameRulesDialog';
import { StatsDialog, useStats, type StatsTarget } from '../components/StatsDialog';
import { shouldShowWelcome, STARTING_COINS, WelcomeDialog } from '../components/WelcomeDialog';
import { usePublicSettings } from '../lib/server-settings';
import { useSocialActions } from '../components/social';
import { Spinner, useNotify } from '../components/ui';
import { useMediaQuery } from '../lib/hooks';
import { invalidateRatings, RatedBanNotice } from '../components/rating';
import { QuickPlay } from '../components/QuickPlay';
import { TournamentsTab } from '../tournaments/TournamentsTab';

type GameFilter = 'all' | 'waiting' | 'playing';

/** Join a seat from the lobby (§7 body {id, username, avatar, seat}); §8 failure text. */
export function useJoinGame() {
  const { user } = useSession();
  const notify = useNotify();
  const navigate = useNavigate();
  return async (gameId: string, seat: number) => {
    if (!user) return;
    try {
      const res = await api.post<{ error?: string } | null>(`/api/games/${encodeURIComponent(gameId)}/join`, {
        id: user.id,
        username: user.username,
        avatar: user.avatar ?? null,
        seat,
      });
      if (res && typeof res === 'object' && typeof res.error === 'string' && res.error) throw new Error(res.error);
      navigate(`/table/${encodeURIComponent(gameId)}`);
    } catch (e) {
      notify(`Failed to join game: ${errorText(e, 'Unknown error')}`);
      if (/banned from rated tables/.test(errorText(e, ''))) invalidateRatings(); // issue #11: show the ban notice
    }
  };
}

export function LobbyShell({ children }: { children: React.ReactNode }) {
  const { user } = useSession();
  const [statsOpen, setStatsOpen] = useState(false);
  // The header's Game Rules item; the desktop menu (Help › Game Rules) is handled app-wide (Root's RulesDialogHost).
  const [rulesOpen, setRulesOpen] = useState(false);
  return (
    <div className="app">
      <Header onStats={() => setStatsOpen(true)} onRules={() => setRulesOpen(true)} />
      {children}
      <StatsDialog
        target={
          statsOpen && user ? { id: user.id, username: user.username, avatar: user.avatar, coins: user.coins } : null
        }
        selfId={user?.id}
        onOpenChange={setStatsOpen}
      />
      <GameRulesDialog open={rulesOpen} onOpenChange={setRulesOpen} />
    </div>
  );
}

export function LobbyPage() {
  const { user, refreshProfile } = useSession();
  const socket = useSocket();
  const navigate = useNavigate();
  const notify = useNotify();
  const games = useGames();
  const users = useUsers();
  const join = useJoinGame();
  const narrow = useMediaQuery('(max-width: 639px)');
  const [view, setView] = useState<'lobby' | 'chat'>('lobby');
  const [sideTab, setSideTab] = useState('chat');
  const [filter, setFilter] = useState<GameFilter>('all');
  const [createOpen, setCreateOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [spinnerExpired, setSpinnerExpired] = useState(false);
  const [statsFor, setStatsFor] = useState<string | null>(null);
  const [welcomeDismissed, setDismissed] = useState(isWelcomeDismissed());
  const social = useSocialActions();
  // issue #27: Tables | Tournaments (`?tab=tournaments`, so the tournament page can link back)
  const [params, setParams] = useSearchParams();
  const mainTab = params.get('tab') === 'tournaments' ? 'tournaments' : 'tables';

  useEffect(() => {
    void refreshProfile();
  }, [refreshProfile]);

  // Socket errors (e.g. the chat rate limit) are shown with the server's text.
  useSocketEvent('error', (p: { message?: string } | string) => {
    const msg = typeof p === 'string' ? p : p?.message;
    if (msg) notify(msg);
  });

  // §2: the spinner ends when games arrive or after 2 s.
  useEffect(() => {
    const t = setTimeout(() => setSpinnerExpired(true), 2000);
    return () => clearTimeout(t);
  }, []);

  // Welcome dialog (§4): exactly the starting coins (5,000,000 or the host's, issue #25) and 0 games played, unless dismissed.
  const startingCoins = usePublicSettings()?.startingCoins ?? STARTING_COINS;
  const needStats = !!user && user.coins === startingCoins && !welcomeDismissed;
  const ownStats = useStats(needStats ? user?.id : undefined, 'ALL');
  const gamesPlayed =
    user?.stats?.gamesPlayed ?? (ownStats.data && !ownStats.data.failed ? ownStats.data.stats.gamesPlayed : null);
  const showWelcome = shouldShowWelcome(user, gamesPlayed, welcomeDismissed, startingCoins);

  const list = useMemo(() => {
    const all = games.data ?? [];
    if (filter === 'waiting') return all.filter((g) => g.status === 'WAITING');
    if (filter === 'playing') return all.filter((g) => g.status !== 'WAITING');
    return all;
  }, [games.data, filter]);

  const onlineCount = socket.onlineIds.size || users.players.filter((p) => p.online).length;
  const statsTarget: StatsTarget | null = useMemo(() => {
    if (!statsFor) return null;
    const p = users.players.find((x) => x.id === statsFor);
    return p ? { id: p.id, username: p.username, avatar: p.avatar, coins: p.coins, status: p.status } : null;
  }, [statsFor, users.players]);

  const createGame = async (settings: GameSettings, opts: { private: boolean } = { private: false }) => {
    if (!user) return;
    setCreating(true);
    try {
      const body = await api.post<unknown>('/api/games', {
        ...toCreateGameRequest(settings),
        creatorId: user.id,
        creatorName: user.username,
        creatorImage: user.avatar ?? null,
        private: opts.private,
      });
      const b = (body ?? {}) as { id?: unknown; game?: { id?: unknown }; gameId?: unknown };
      const id = b.id ?? b.game?.id ?? b.gameId;
      if (typeof id !== 'string' && typeof id !== 'number') throw new Error('no id');
      setCreateOpen(false);
      navigate(`/table/${encodeURIComponent(String(id))}`);
    } catch {
      notify('Failed to create game');
    } finally {
      setCreating(false);
    }
  };

  const sendLobby = (text: string) => {
    if (!user || !socket.authenticated) return;
    const lobbyMessage: { message: string } & SpecIdentity = {
      userId: user.id,
      username: user.username,
      message: text,
      timestamp: Date.now(),
    };
    socket.emit('lobby_chat_message', lobbyMessage);
  };

  const loading = games.isLoading && !spinnerExpired;
  const onShowStats = (p: LobbyPlayer) => setStatsFor(p.id);

  const gamesSection = (
    <section className="games-section" aria-labelledby="games-h">
      <QuickPlay />
      <div className="section-head">
        <h1 id="games-h" className="h2">
          Available Games
        </h1>
        <div className="segmented" role="radiogroup" aria-label="Game filter">
          {(
            [
              ['all', 'All Games'],
              ['waiting', 'Waiting'],
              ['playing', 'In Progress'],
            ] as const
          ).map(([v, l]) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={filter === v}
              className={filter === v ? 'active' : ''}
              onClick={() => setFilter(v)}
            >
              {l}
            </button>
          ))}
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
          <Plus size={18} /> Create Game
        </button>
      </div>
      {loading ? (
        <div className="center pad-lg">
          <Spinner label="Loading games" />
        </div>
      ) : list.length === 0 ? (
        <div className="empty-state">
          <Spade size={40} aria-hidden="true" />
          <p className="h3">
            No games {filter === 'waiting' ? 'waiting' : filter === 'playing' ? 'in progress' : 'yet'}
          </p>
          <p className="muted">Create a table and invite your friends, or fill the seats with bots.</p>
          <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
            <Plus size={18} /> Create Game
          </button>
        </div>
      ) : (
        <div className="game-grid">
          {list.map((g: GameListItem) => (
            <GameCard
              key={g.id}
              game={g}
              selfId={user?.id}
              onJoin={(seat) => void join(g.id, seat)}
              onWatch={() => navigate(`/table/${encodeURIComponent(g.id)}?spectate=1`)}
              onOpen={() => navigate(`/table/${encodeURIComponent(g.id)}`)}
            />
          ))}
        </div>
      )}
    </section>
  );

  const sidePanel = (
    <aside className="side-panel" aria-label="Lobby chat and players">
      <Tabs.Root value={sideTab} onValueChange={setSideTab} className="tabs fill">
        {/* issue #31: only tabs inside the tab list (aria-required-children); the online count beside it */}
        <div className="tab-list-row">
          <Tabs.List className="tab-list" aria-label="Side panel">
            <Tabs.Trigger value="chat" className="tab">
              <MessageSquare size={16} /> Chat
            </Tabs.Trigger>
            <Tabs.Trigger value="players" className="tab">
              <Users size={16} /> Players
            </Tabs.Trigger>
          </Tabs.List>
          <span className="online-count">
            <span className="presence on" aria-hidden="true" /> {onlineCount} online
          </span>
        </div>
        <Tabs.Content value="chat" className="tab-content fill">
          <ChatPanel
            messages={withoutBlocked(socket.lobbyMessages, blockedIds(users.players))}
            onSend={sendLobby}
            canSend={socket.authenticated}
            selfId={user?.id}
            placeholder="Message the lobby…"
          />
        </Tabs.Content>
        <Tabs.Content value="players" className="tab-content fill">
          <PlayersList
            players={users.players}
            selfId={user?.id}
            onAction={(a, p) => social.ask(a, p)}
            onShowStats={onShowStats}
          />
        </Tabs.Content>
      </Tabs.Root>
    </aside>
  );

  return (
    <LobbyShell>
      {narrow && (
        <div className="segmented mobile-toggle" role="radiogroup" aria-label="Lobby or chat">
          <button
            type="button"
            role="radio"
            aria-checked={view === 'lobby'}
            className={view === 'lobby' ? 'active' : ''}
            onClick={() => setView('lobby')}
          >
            <LayoutGrid size={16} /> Lobby
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={view === 'chat'}
            className={view === 'chat' ? 'active' : ''}
            onClick={() => setView('chat')}
          >
            <MessageSquare size={16} /> Chat
          </button>
        </div>
      )}
      <RatedBanNotice userId={user?.id} />
      <main className="lobby">
        {(!narrow || view === 'lobby') && (
          <Tabs.Root
            value={mainTab}
            onValueChange={(v) => setParams(v === 'tournaments' ? { tab: v } : {}, { replace: true })}
            className="tabs lobby-main"
          >
            <Tabs.List className="tab-list lobby-tabs" aria-label="Lobby">
              <Tabs.Trigger value="tables" className="tab">
                <LayoutGrid size={16} /> Tables
              </Tabs.Trigger>
              <Tabs.Trigger value="tournaments" className="tab">
                <Trophy size={16} /> Tournaments
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="tables" className="lobby-tab-content">
              {gamesSection}
            </Tabs.Content>
            <Tabs.Content value="tournaments" className="lobby-tab-content">
              {mainTab === 'tournaments' && <TournamentsTab />}
            </Tabs.Content>
          </Tabs.Root>
        )}
        {(!narrow || view === 'chat') && sidePanel}
      </main>
      {socket.error && (
        <div className="conn-banner" role="status">
          {socket.error}
        </div>
      )}
      <CreateGameDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        onSubmit={(s, o) => void createGame(s, o)}
        busy={creating}
        coins={user?.coins}
      />
      <StatsDialog target={statsTarget} selfId={user?.id} onOpenChange={(o) => !o && setStatsFor(null)} />
      <WelcomeDialog
        open={showWelcome}
        coins={startingCoins}
        onDismiss={() => {
          setWelcomeDismissed();
          setDismissed(true);
        }}
      />
      {social.dialog}
    </LobbyShell>
  );
}
