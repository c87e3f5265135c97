import { StrictMode, useEffect, useRef, useState } from 'react';
import { BrowserRouter, HashRouter, useNavigate } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SessionProvider, useSession } from './session/session';
import { SocketProvider, useSocketEvent } from './socket/socket';
import { ToastProvider } from './components/ui';
import { GameRulesDialog } from './components/GameRulesDialog';
import { InvitationsHost } from './components/Invitations';
import { AppRoutes } from './App';
import { bridge, useHashRouting, type DeepLink } from './lib/platform';
import { mentionNotification, mentions, notifyDesktop } from './lib/notifications';
import { normalizeChat } from './lib/types';
import { ServerLinkHost } from './servers/ServerLinkHost';
import { UpdateBanner } from './servers/UpdateBanner';
import { ModerationHost } from './moderation/ModerationHost';
import { MatchReadyHost } from './tournaments/MatchReady';

/** Opens the Game Rules dialog wherever the user is (desktop menu Help › Game Rules, `spades://rules`). */
export const OPEN_RULES_EVENT = 'spades:open-rules';

/** Desktop deep links (spades://auth/callback?token=…, spades://table/ID) become in-app navigations. */
export function DeepLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const off = bridge()?.onDeepLink?.((link: DeepLink) => {
      if (link.kind === 'rules') {
        window.dispatchEvent(new CustomEvent(OPEN_RULES_EVENT));
        return;
      }
      if (link.kind === 'server-link') return; // another server's link: ServerLinkHost asks the player first
      // auth-callback → /auth/callback?token=… (the web route completes the login), table → /table/ID.
      if (typeof link.path === 'string' && link.path.startsWith('/')) navigate(link.path);
    });
    return () => {
      if (typeof off === 'function') off();
    };
  }, [navigate]);
  return null;
}

/**
 * The Game Rules dialog for the whole app, so the menu item works on every page: lobby, profile, table and
 * the public pages too (the rules are no secret, and a signed-out player may want to read them).
 */
export function RulesDialogHost() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    window.addEventListener(OPEN_RULES_EVENT, show);
    return () => window.removeEventListener(OPEN_RULES_EVENT, show);
  }, []);
  return <GameRulesDialog open={open} onOpenChange={setOpen} />;
}

/**
 * Lobby chat history is replayed as ordinary lobby_chat_message events right after `authenticated`; messages
 * arriving this soon after (re)authentication are history and never notify.
 */
export const LOBBY_HISTORY_GRACE_MS = 1_000;

/**
 * App-wide desktop notifications (the table raises its own: your turn, game starting, game chat mentions):
 * a friend request (`friendAdded`) and your name in lobby chat. No-op on the web (no bridge).
 */
export function DesktopNotifications() {
  const { user } = useSession();
  const authAt = useRef<number | null>(null);
  useSocketEvent('authenticated', () => {
    authAt.current = Date.now();
  });
  useSocketEvent('friendAdded', (p) => {
    const name = typeof p?.username === 'string' && p.username ? p.username : 'A player';
    notifyDesktop({ kind: 'friend-request', title: 'Friend request', body: `${name} added you as a friend.` });
  });
  useSocketEvent('lobby_chat_message', (raw) => {
    if (!user || (authAt.current !== null && Date.now() - authAt.current < LOBBY_HISTORY_GRACE_MS)) return;
    const m = normalizeChat(raw);
    if (!m || m.system || m.userId === user.id || !mentions(m.message, user.username)) return;
    notifyDesktop(mentionNotification(m.username, m.message, 'lobby'));
  });
  return null;
}

/**
 * Router choice: BrowserRouter on the web (real URLs; the backend serves index.html for them) and in the
 * packaged desktop app (served from app://spades with an SPA fallback); HashRouter when the renderer is
 * loaded from file://, where the path is the file's path.
 */
export function Root() {
  const Router = useHashRouting() ? HashRouter : BrowserRouter;
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 } } }),
  );
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Router>
          <ToastProvider>
            <SessionProvider>
              <SocketProvider>
                <DeepLinks />
                <DesktopNotifications />
                <RulesDialogHost />
                <InvitationsHost />
                <MatchReadyHost />
                <ServerLinkHost />
                <UpdateBanner />
                <ModerationHost />
                <AppRoutes />
              </SocketProvider>
            </SessionProvider>
          </ToastProvider>
        </Router>
      </QueryClientProvider>
    </StrictMode>
  );
}
