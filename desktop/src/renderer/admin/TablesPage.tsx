import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye } from 'lucide-react';
import {
  CONSOLE_TABLE_FILTERS,
  formatBuyIn,
  type ConsoleCloseTableRequest,
  type ConsoleRemovePlayerRequest,
  type ConsoleTableItem,
  type ConsoleTablesFilter,
  type ConsoleTablesPage,
} from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { qs } from './admin-api';
import { ago, when } from './format';
import { ReasonDialog } from './ReasonDialog';

const FILTER_LABELS: Record<ConsoleTablesFilter, string> = {
  live: 'Live',
  waiting: 'Waiting',
  playing: 'Playing',
  recent: 'Recent',
  all: 'All',
};

type Dialog = { kind: 'close'; table: ConsoleTableItem } | { kind: 'remove'; table: ConsoleTableItem; userId: string };

function statusBadge(t: ConsoleTableItem) {
  if (t.status === 'CLOSED') return <span className="badge badge-dim">closed</span>;
  if (t.status === 'WAITING') return <span className="badge badge-neutral">waiting</span>;
  if (t.status === 'COMPLETED') return <span className="badge badge-blue">result</span>;
  return <span className="badge badge-amber">{t.status === 'BIDDING' ? 'bidding' : 'playing'}</span>;
}

/** Live and recent tables (private ones too): watch one, close a stuck one, take a player out of a seat. */
export function TablesPage() {
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'live') as ConsoleTablesFilter;
  const mode = params.get('mode') ?? '';
  const player = params.get('player') ?? '';
  const [playerInput, setPlayerInput] = useState(player);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const qc = useQueryClient();
  const notify = useNotify();
  const q = useQuery({
    queryKey: ['admin', 'tables', status, mode, player],
    queryFn: () => api.get<ConsoleTablesPage>(`/api/admin/tables${qs({ status, mode, player })}`),
    refetchInterval: 5000,
  });
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next, { replace: true });
  };
  const tables = q.data?.tables ?? [];
  const humans = (t: ConsoleTableItem) => t.seats.filter((s) => s.kind === 'human' && s.userId);

  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Tables</h1>
        {q.data && <span className="muted small">{q.data.liveCount} open on the server</span>}
      </div>
      <form
        className="console-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set('player', playerInput.trim());
        }}
      >
        <div className="segmented" role="radiogroup" aria-label="Table status">
          {CONSOLE_TABLE_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              role="radio"
              aria-checked={status === f}
              className={status === f ? 'active' : ''}
              onClick={() => set('status', f === 'live' ? '' : f)}
            >
              {FILTER_LABELS[f]}
            </button>
          ))}
        </div>
        <label className="field">
          <span>Mode</span>
          <select className="select" value={mode} onChange={(e) => set('mode', e.target.value)}>
            <option value="">Any</option>
            <option value="PARTNERS">Partners</option>
            <option value="SOLO">Solo</option>
          </select>
        </label>
        <label className="field">
          <span>Player (name or id)</span>
          <input value={playerInput} onChange={(e) => setPlayerInput(e.target.value)} placeholder="anyone" />
        </label>
        <button type="submit" className="btn btn-secondary">
          Filter
        </button>
      </form>
      {q.error ? (
        <p className="form-error" role="alert">
          {errorText(q.error, 'Could not load the tables')}
        </p>
      ) : null}
      <div className="data-wrap">
        <table className="data" aria-label="Tables">
          <thead>
            <tr>
              <th>Table</th>
              <th>Status</th>
              <th>Game</th>
              <th className="num">Buy-in</th>
              <th>Seats</th>
              <th className="num">Watching</th>
              <th>Opened</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {q.isLoading ? (
              <tr>
                <td colSpan={8} className="empty">
                  Loading…
                </td>
              </tr>
            ) : tables.length === 0 ? (
              <tr>
                <td colSpan={8} className="empty">
                  No {status === 'all' ? '' : FILTER_LABELS[status].toLowerCase()} tables
                  {player ? ` with “${player}”` : ''}.
                </td>
              </tr>
            ) : (
              tables.map((t) => (
                <tr key={t.id} data-testid="console-table-row">
                  <td className="nowrap">
                    <span className="code" title={t.id}>
                      {t.id.slice(0, 8)}
                    </span>
                    {t.private && <span className="badge badge-outline">private</span>}
                    {t.node && <div className="muted small code">{t.node}</div>}
                  </td>
                  <td className="nowrap">
                    {statusBadge(t)}
                    {t.closedReason && <div className="muted small">{t.closedReason}</div>}
                  </td>
                  <td className="nowrap">
                    {t.mode} · {t.biddingOption} {t.rated && <span className="badge badge-amber">rated</span>}
                    {t.handNumber > 0 && (
                      <div className="muted small">
                        game {t.gameNumber}, hand {t.handNumber}
                      </div>
                    )}
                  </td>
                  <td className="num">{formatBuyIn(t.buyIn)}</td>
                  <td>
                    <div className="seat-list">
                      {t.seats.map((s) => (
                        <span key={s.seat} className="seat">
                          {s.kind === 'human' && s.userId ? (
                            <Link to={`/admin/players/${s.userId}`}>{s.username}</Link>
                          ) : s.kind === 'bot' ? (
                            <span className="muted">Bot</span>
                          ) : (
                            <span className="muted">{s.vacantUntil ? 'vacant' : 'empty'}</span>
                          )}
                        </span>
                      ))}
                    </div>
                  </td>
                  <td className="num">{t.spectators.length}</td>
                  <td className="nowrap" title={when(t.createdAt)}>
                    {ago(t.createdAt)}
                  </td>
                  <td className="actions">
                    {t.status !== 'CLOSED' && (
                      <>
                        <Link
                          className="btn btn-ghost btn-sm"
                          to={`/table/${t.id}?spectate=1`}
                          aria-label={`Watch table ${t.id.slice(0, 8)}`}
                        >
                          <Eye size={14} aria-hidden="true" /> Watch
                        </Link>
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          disabled={humans(t).length === 0}
                          onClick={() => setDialog({ kind: 'remove', table: t, userId: humans(t)[0]?.userId ?? '' })}
                        >
                          Remove player
                        </button>
                        <button
                          type="button"
                          className="btn btn-danger-ghost btn-sm"
                          onClick={() => setDialog({ kind: 'close', table: t })}
                        >
                          Close
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {dialog?.kind === 'close' && (
        <ReasonDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          title={`Close table ${dialog.table.id.slice(0, 8)}`}
          description={
            dialog.table.rated
              ? 'A rated game in progress is settled as an abandoned game: the buy-ins in escrow go back as the ledger rules say.'
              : 'The players are sent back to the lobby with your reason.'
          }
          confirmLabel="Close table"
          danger
          onSubmit={async (reason) => {
            const body: ConsoleCloseTableRequest = { reason };
            await api.post(`/api/admin/tables/${dialog.table.id}/close`, body);
            notify('Table closed', 'info');
            void qc.invalidateQueries({ queryKey: ['admin'] });
          }}
        />
      )}
      {dialog?.kind === 'remove' && (
        <ReasonDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          title="Remove a player from the table"
          description="Before the start the seat is freed; during a game a bot takes the seat (a rated game's leaver rules apply)."
          confirmLabel="Remove player"
          danger
          canSubmit={!!dialog.userId}
          onSubmit={async (reason) => {
            const body: ConsoleRemovePlayerRequest = { userId: dialog.userId, reason };
            await api.post(`/api/admin/tables/${dialog.table.id}/remove-player`, body);
            notify('Player removed', 'info');
            void qc.invalidateQueries({ queryKey: ['admin'] });
          }}
        >
          <label className="field">
            <span>Player</span>
            <select
              className="select"
              value={dialog.userId}
              onChange={(e) => setDialog({ ...dialog, userId: e.target.value })}
            >
              {humans(dialog.table).map((s) => (
                <option key={s.userId} value={s.userId!}>
                  Seat {s.seat + 1}: {s.username}
                </option>
              ))}
            </select>
          </label>
        </ReasonDialog>
      )}
    </div>
  );
}
