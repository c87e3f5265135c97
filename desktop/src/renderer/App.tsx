import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useParams, useSearchParams } from 'react-router';
import { useSession } from './session/session';
import { LoadingScreen } from './components/ui';
import { LoginPage } from './pages/LoginPage';
import { RegisterPage } from './pages/RegisterPage';
import { AuthCallbackPage } from './pages/AuthCallbackPage';
import { LinkRequiredPage } from './pages/LinkRequiredPage';
import { LobbyPage } from './pages/LobbyPage';
import { InviteGate } from './table/InviteGate';
import { clearReturnTo, rememberReturnTo } from './lib/return-to';

// The first load carries the sign-in pages and the lobby (issue 15: at most 200 KB of JavaScript over the wire for
// the lobby); every other page is its own chunk, fetched when first opened.
const ProfilePage = lazy(() => import('./pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const LeaderboardPage = lazy(() => import('./pages/LeaderboardPage').then((m) => ({ default: m.LeaderboardPage })));
const AdminSetupPage = lazy(() => import('./pages/AdminSetupPage').then((m) => ({ default: m.AdminSetupPage })));
const ServersPage = lazy(() => import('./servers/ServersPage').then((m) => ({ default: m.ServersPage })));
const TablePage = lazy(() => import('./table/TablePage').then((m) => ({ default: m.TablePage })));
const ReplayPage = lazy(() => import('./replay/ReplayPage').then((m) => ({ default: m.ReplayPage })));
const TournamentPage = lazy(() => import('./tournaments/TournamentPage').then((m) => ({ default: m.TournamentPage })));
const AdminConsole = lazy(() => import('./admin/AdminConsole').then((m) => ({ default: m.AdminConsole })));

function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  useEffect(() => {
    if (status === 'authenticated') clearReturnTo();
  }, [status]);
  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'authenticated') {
    // an invite link (or any deep page) opened while signed out: sign in first, then come back here
    rememberReturnTo(location.pathname + location.search);
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}

/** A replay needs a signed-in user, except through a share link (`?share=`, issue #24): that one replay for anyone. */
function ReplayRoute() {
  const [params] = useSearchParams();
  const page = (
    <Suspense fallback={<LoadingScreen text="Loading the replay…" />}>
      <ReplayPage />
    </Suspense>
  );
  return params.get('share') ? page : <RequireAuth>{page}</RequireAuth>;
}

/** Clarification 7: /game/:id redirects to /table/:id. */
function GameRedirect() {
  const { id } = useParams();
  return <Navigate to={`/table/${encodeURIComponent(id ?? '')}`} replace />;
}

export function AppRoutes() {
  return (
    // the pages loaded on first use (their own Suspense where they show a more telling text)
    <Suspense fallback={<LoadingScreen />}>
      <PageRoutes />
    </Suspense>
  );
}

function PageRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/auth/callback" element={<AuthCallbackPage />} />
      <Route path="/auth/link-required" element={<LinkRequiredPage />} />
      <Route path="/servers" element={<ServersPage />} />
      <Route
        path="/"
        element={
          <RequireAuth>
            <LobbyPage />
          </RequireAuth>
        }
      />
      <Route
        path="/profile"
        element={
          <RequireAuth>
            <ProfilePage />
          </RequireAuth>
        }
      />
      <Route
        path="/leaderboard"
        element={
          <RequireAuth>
            <LeaderboardPage />
          </RequireAuth>
        }
      />
      <Route
        path="/admin/setup"
        element={
          <RequireAuth>
            <AdminSetupPage />
          </RequireAuth>
        }
      />
      <Route
        path="/admin/*"
        element={
          <RequireAuth>
            <Suspense fallback={<LoadingScreen text="Opening the console…" />}>
              <AdminConsole />
            </Suspense>
          </RequireAuth>
        }
      />
      <Route
        path="/game/:id"
        element={
          <RequireAuth>
            <GameRedirect />
          </RequireAuth>
        }
      />
      <Route
        path="/table/:gameId"
        element={
          <RequireAuth>
            <InviteGate>
              <Suspense fallback={<LoadingScreen text="Opening the table…" />}>
                <TablePage />
              </Suspense>
            </InviteGate>
          </RequireAuth>
        }
      />
      <Route
        path="/tournaments/:id"
        element={
          <RequireAuth>
            <Suspense fallback={<LoadingScreen text="Opening the tournament…" />}>
              <TournamentPage />
            </Suspense>
          </RequireAuth>
        }
      />
      <Route path="/replay/:id" element={<ReplayRoute />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
