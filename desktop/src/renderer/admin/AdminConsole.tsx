import { lazy, Suspense, type ReactNode } from 'react';
import { Link, NavLink, Navigate, Route, Routes } from 'react-router';
import { ArrowLeft, Flag, Gauge, LayoutGrid, ScrollText, Settings, ShieldCheck, Trophy, Users } from 'lucide-react';
import { ACCOUNT_ROLE_LABELS, type StaffMe } from '@spades/common';
import { Logo, Spinner } from '../components/ui';
import { ApiError, errorText } from '../lib/api';
import { StaffContext, isAdmin, useStaffMe } from './admin-api';
import './admin.css';

const DashboardPage = lazy(() => import('./DashboardPage').then((m) => ({ default: m.DashboardPage })));
const PlayersPage = lazy(() => import('./PlayersPage').then((m) => ({ default: m.PlayersPage })));
const PlayerPage = lazy(() => import('./PlayerPage').then((m) => ({ default: m.PlayerPage })));
const TablesPage = lazy(() => import('./TablesPage').then((m) => ({ default: m.TablesPage })));
const ReportsPage = lazy(() => import('./ReportsPage').then((m) => ({ default: m.ReportsPage })));
const AuditPage = lazy(() => import('./AuditPage').then((m) => ({ default: m.AuditPage })));
const SettingsPage = lazy(() => import('./SettingsPage').then((m) => ({ default: m.SettingsPage })));
const TournamentsPage = lazy(() => import('./TournamentsPage').then((m) => ({ default: m.TournamentsPage })));
const RolesPage = lazy(() => import('./RolesPage').then((m) => ({ default: m.RolesPage })));

interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  adminOnly?: boolean;
}

const NAV: NavItem[] = [
  { to: '/admin', label: 'Dashboard', icon: <Gauge size={18} aria-hidden="true" /> },
  { to: '/admin/players', label: 'Players', icon: <Users size={18} aria-hidden="true" /> },
  { to: '/admin/tables', label: 'Tables', icon: <LayoutGrid size={18} aria-hidden="true" /> },
  { to: '/admin/reports', label: 'Reports', icon: <Flag size={18} aria-hidden="true" /> },
  { to: '/admin/tournaments', label: 'Tournaments', icon: <Trophy size={18} aria-hidden="true" /> },
  { to: '/admin/audit', label: 'Audit log', icon: <ScrollText size={18} aria-hidden="true" />, adminOnly: true },
  { to: '/admin/settings', label: 'Settings', icon: <Settings size={18} aria-hidden="true" />, adminOnly: true },
  { to: '/admin/roles', label: 'Roles', icon: <ShieldCheck size={18} aria-hidden="true" />, adminOnly: true },
];

/**
 * The host console (`/admin/*`, issue #25): moderators and admins only. Who may use it is asked from the server
 * (GET /api/admin/me: 403 for players); every route it calls is guarded there too, so hiding the admin-only pages
 * from moderators is a convenience, not the protection.
 */
export function AdminConsole() {
  const me = useStaffMe();
  if (me.isLoading) {
    return (
      <div className="console-gate">
        <Spinner label="Checking access" />
      </div>
    );
  }
  if (me.error || !me.data) {
    const forbidden = me.error instanceof ApiError && me.error.status === 403;
    return (
      <div className="console-gate">
        <Logo size={48} />
        <h1 className="h2">{forbidden ? 'Moderators and admins only' : 'The console is not available'}</h1>
        <p className="muted">
          {forbidden
            ? 'This console is for the people who run this server. Ask an admin if you should have access.'
            : errorText(me.error, 'The server did not answer.')}
        </p>
        <Link to="/" className="btn btn-primary">
          Back to the lobby
        </Link>
      </div>
    );
  }
  return (
    <StaffContext.Provider value={me.data}>
      <ConsoleShell me={me.data}>
        <Suspense
          fallback={
            <div className="center pad-lg">
              <Spinner />
            </div>
          }
        >
          <Routes>
            <Route index element={<DashboardPage />} />
            <Route path="players" element={<PlayersPage />} />
            <Route path="players/:id" element={<PlayerPage />} />
            <Route path="tables" element={<TablesPage />} />
            <Route path="reports" element={<ReportsPage />} />
            <Route path="reports/:id" element={<ReportsPage />} />
            <Route path="tournaments" element={<TournamentsPage />} />
            <Route
              path="audit"
              element={
                <AdminOnly me={me.data}>
                  <AuditPage />
                </AdminOnly>
              }
            />
            <Route
              path="settings"
              element={
                <AdminOnly me={me.data}>
                  <SettingsPage />
                </AdminOnly>
              }
            />
            <Route
              path="roles"
              element={
                <AdminOnly me={me.data}>
                  <RolesPage />
                </AdminOnly>
              }
            />
            <Route path="*" element={<Navigate to="/admin" replace />} />
          </Routes>
        </Suspense>
      </ConsoleShell>
    </StaffContext.Provider>
  );
}

function AdminOnly({ me, children }: { me: StaffMe; children: ReactNode }) {
  if (isAdmin(me)) return <>{children}</>;
  return (
    <div className="console-page">
      <h1 className="h2">Admins only</h1>
      <p className="muted">Roles, settings, coin corrections and the audit log are for admins.</p>
    </div>
  );
}

function ConsoleShell({ me, children }: { me: StaffMe; children: ReactNode }) {
  return (
    <div className="console">
      <header className="console-top">
        <Link to="/admin" className="brand" aria-label="Spades console home">
          <Logo size={28} withText />
        </Link>
        <span className="console-title">Console</span>
        <div className="console-who">
          <span className="muted small who-label">Signed in as</span>{' '}
          <strong className="who-name">{me.username}</strong>{' '}
          <span className={`badge ${me.role === 'admin' ? 'badge-amber' : 'badge-blue'}`}>
            {ACCOUNT_ROLE_LABELS[me.role]}
          </span>
          <Link to="/" className="btn btn-ghost btn-sm">
            <ArrowLeft size={16} aria-hidden="true" /> Lobby
          </Link>
        </div>
      </header>
      <div className="console-body">
        <nav className="console-nav" aria-label="Console">
          {NAV.filter((n) => !n.adminOnly || isAdmin(me)).map((n) => (
            <NavLink
              key={n.to}
              to={n.to}
              end={n.to === '/admin'}
              className={({ isActive }) => `console-link ${isActive ? 'active' : ''}`}
            >
              {n.icon}
              <span>{n.label}</span>
            </NavLink>
          ))}
        </nav>
        <main className="console-main">{children}</main>
      </div>
    </div>
  );
}
