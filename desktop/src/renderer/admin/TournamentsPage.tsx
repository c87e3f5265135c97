/**
 * Issue #27: tournaments in the console (moderators and admins): the lists, "Create scheduled" (start time,
 * registration opening, minimum entrants, mode, size, buy-in, prize split, no-show seconds) and Cancel with a reason
 * (every buy-in refunded; audited by the server). The server validates everything; its refusal is shown.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import {
  formatCoins,
  isValidBuyIn,
  type CreateTournamentInput,
  type TournamentSummary,
  type TournamentView,
} from '@spades/common';
import { Modal, useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { DEFAULT_SPLIT, LIST_STATUSES, splitLabel, statusLabel, statusTone } from '../tournaments/bracket-model';
import { tournamentApiPath, tournamentPath } from '../tournaments/tournament-api';
import { ReasonDialog } from './ReasonDialog';

type ListStatus = (typeof LIST_STATUSES)[number]['key'];

/** `datetime-local` value (local time) ↔ epoch ms. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}
export function fromLocalInput(v: string): number | null {
  if (!v) return null;
  const t = new Date(v).getTime();
  return Number.isNaN(t) ? null : t;
}

/** "65, 35" → [65, 35]; null when not integers summing to 100. */
export function parseSplit(text: string): number[] | null {
  const parts = text
    .split(/[\s,;/]+/)
    .filter(Boolean)
    .map((x) => Number(x));
  if (!parts.length || parts.some((n) => !Number.isInteger(n) || n < 0)) return null;
  return parts.reduce((a, b) => a + b, 0) === 100 ? parts : null;
}

interface Draft {
  name: string;
  mode: 'PARTNERS' | 'SOLO';
  size: 8 | 16;
  buyIn: string;
  split: string;
  startsAt: string;
  opensAt: string;
  minEntrants: string;
  noShowSeconds: string;
}

function newDraft(): Draft {
  const start = Math.ceil((Date.now() + 2 * 3600_000) / 900_000) * 900_000;
  return {
    name: '',
    mode: 'PARTNERS',
    size: 16,
    buyIn: '100000',
    split: DEFAULT_SPLIT.PARTNERS.join(', '),
    startsAt: toLocalInput(start),
    opensAt: '',
    minEntrants: '8',
    noShowSeconds: '120',
  };
}

/** The create request of a draft, or the first problem (the server checks again). */
export function draftToInput(d: Draft): { ok: true; input: CreateTournamentInput } | { ok: false; message: string } {
  if (!d.name.trim()) return { ok: false, message: 'A name is required' };
  const startsAt = fromLocalInput(d.startsAt);
  if (startsAt === null) return { ok: false, message: 'Choose the start time' };
  const opensAt = fromLocalInput(d.opensAt);
  if (opensAt !== null && opensAt >= startsAt) return { ok: false, message: 'Registration must open before the start' };
  const split = parseSplit(d.split);
  if (!split) return { ok: false, message: 'The prize split must be whole percents summing to 100' };
  const buyIn = Number(d.buyIn);
  const minEntrants = Number(d.minEntrants);
  const noShow = Number(d.noShowSeconds);
  if (!(buyIn === 0 || isValidBuyIn(buyIn)))
    return { ok: false, message: 'The buy-in: 0 (free) or at least 100,000 in table steps' };
  if (!Number.isInteger(minEntrants) || minEntrants < 2 || minEntrants > d.size)
    return { ok: false, message: `Minimum entrants: 2 to ${d.size}` };
  if (!Number.isInteger(noShow) || noShow < 30 || noShow > 900)
    return { ok: false, message: 'No-show time: 30 to 900 seconds' };
  return {
    ok: true,
    input: {
      kind: 'scheduled',
      name: d.name.trim(),
      mode: d.mode,
      size: d.size,
      buyIn,
      prizeSplit: split,
      startsAt,
      registrationOpensAt: opensAt,
      minEntrants,
      noShowMs: noShow * 1000,
    },
  };
}

function CreateScheduledDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const [d, setD] = useState<Draft>(newDraft);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const checked = draftToInput(d);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create a scheduled tournament" className="modal-md">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!checked.ok) return setError(checked.message);
          setBusy(true);
          setError('');
          api
            .post<TournamentView>('/api/admin/tournaments', checked.input)
            .then((v) => {
              notify(`Created ${v.name}`, 'info');
              void qc.invalidateQueries({ queryKey: ['admin', 'tournaments'] });
              void qc.invalidateQueries({ queryKey: ['tournaments'] });
              setD(newDraft());
              onOpenChange(false);
            })
            .catch((err: unknown) => setError(errorText(err, 'Could not create the tournament')))
            .finally(() => setBusy(false));
        }}
      >
        <label className="field">
          <span>Name</span>
          <input value={d.name} maxLength={40} onChange={(e) => set('name', e.target.value)} />
        </label>
        <div className="console-cols">
          <label className="field">
            <span>Mode</span>
            <select
              className="select"
              value={d.mode}
              onChange={(e) => {
                const mode = e.target.value as Draft['mode'];
                setD((x) => ({ ...x, mode, split: DEFAULT_SPLIT[mode].join(', ') }));
              }}
            >
              <option value="PARTNERS">Partners</option>
              <option value="SOLO">Solo</option>
            </select>
          </label>
          <label className="field">
            <span>Players</span>
            <select
              className="select"
              value={d.size}
              onChange={(e) => set('size', Number(e.target.value) === 8 ? 8 : 16)}
            >
              <option value={8}>8</option>
              <option value={16}>16</option>
            </select>
          </label>
        </div>
        <div className="console-cols">
          <label className="field">
            <span>Start time</span>
            <input type="datetime-local" value={d.startsAt} onChange={(e) => set('startsAt', e.target.value)} />
          </label>
          <label className="field">
            <span>Registration opens (empty: now)</span>
            <input type="datetime-local" value={d.opensAt} onChange={(e) => set('opensAt', e.target.value)} />
          </label>
        </div>
        <div className="console-cols">
          <label className="field">
            <span>Buy-in (coins; 0 = free)</span>
            <input
              inputMode="numeric"
              value={d.buyIn}
              onChange={(e) => set('buyIn', e.target.value.replace(/\D/g, ''))}
            />
          </label>
          <label className="field">
            <span>Prize split (% per place)</span>
            <input value={d.split} onChange={(e) => set('split', e.target.value)} />
          </label>
        </div>
        <div className="console-cols">
          <label className="field">
            <span>Minimum entrants</span>
            <input
              inputMode="numeric"
              value={d.minEntrants}
              onChange={(e) => set('minEntrants', e.target.value.replace(/\D/g, ''))}
            />
          </label>
          <label className="field">
            <span>No-show seconds (30–900)</span>
            <input
              inputMode="numeric"
              value={d.noShowSeconds}
              onChange={(e) => set('noShowSeconds', e.target.value.replace(/\D/g, ''))}
            />
          </label>
        </div>
        <p className="muted small">
          No late registration. Below the minimum at the start time it is cancelled and every buy-in refunded.
        </p>
        {(error || !checked.ok) && (
          <p className="form-error" role="alert">
            {error || (!checked.ok ? checked.message : '')}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !checked.ok}>
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function TournamentsPage() {
  const [status, setStatus] = useState<ListStatus>('open');
  const [createOpen, setCreateOpen] = useState(false);
  const [cancel, setCancel] = useState<TournamentSummary | null>(null);
  const qc = useQueryClient();
  const notify = useNotify();
  const q = useQuery({
    queryKey: ['admin', 'tournaments', status],
    queryFn: () => api.get<TournamentSummary[]>(`/api/tournaments?status=${status}`),
    refetchInterval: 10_000,
  });
  const rows = q.data ?? [];
  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Tournaments</h1>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreateOpen(true)}>
          <Plus size={16} aria-hidden="true" /> Create scheduled
        </button>
      </div>
      <div className="console-filters">
        <div className="segmented" role="radiogroup" aria-label="Tournament status">
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
      </div>
      {q.error && <p className="form-error">{errorText(q.error, 'Could not load the tournaments')}</p>}
      <div className="data-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th>Format</th>
              <th className="num">Buy-in</th>
              <th className="num">Players</th>
              <th>Split</th>
              <th>Starts</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={8} className="empty">
                  {q.isLoading ? 'Loading…' : 'None'}
                </td>
              </tr>
            )}
            {rows.map((t) => (
              <tr key={t.id}>
                <td className="clip">
                  <Link to={tournamentPath(t.id)}>{t.name}</Link>
                  <div className="muted small">
                    {t.kind === 'scheduled' ? 'scheduled' : 'sit-and-go'} · by {t.createdByName}
                  </div>
                </td>
                <td>
                  <span className={`badge badge-${statusTone(t.status)}`}>{statusLabel(t.status).toLowerCase()}</span>
                </td>
                <td className="nowrap">
                  {t.mode} {t.size}
                </td>
                <td className="num">{t.buyIn === 0 ? 'free' : formatCoins(t.buyIn)}</td>
                <td className="num">
                  {t.registered}/{t.size}
                  {t.kind === 'scheduled' ? ` (min ${t.minEntrants})` : ''}
                </td>
                <td className="nowrap small">{splitLabel(t.prizeSplit)}</td>
                <td className="nowrap small">{t.startsAt ? new Date(t.startsAt).toLocaleString() : '—'}</td>
                <td className="actions">
                  {(t.status === 'REGISTERING' || t.status === 'RUNNING') && (
                    <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => setCancel(t)}>
                      Cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CreateScheduledDialog open={createOpen} onOpenChange={setCreateOpen} />
      <ReasonDialog
        open={!!cancel}
        onOpenChange={(o) => !o && setCancel(null)}
        title={`Cancel ${cancel?.name ?? ''}`}
        description="Every buy-in is refunded; the players see the reason."
        confirmLabel="Cancel the tournament"
        danger
        onSubmit={async (reason) => {
          if (!cancel) return;
          await api.post(`${tournamentApiPath(cancel.id).replace('/api/', '/api/admin/')}/cancel`, { reason });
          notify(`Cancelled ${cancel.name}`, 'info');
          void qc.invalidateQueries({ queryKey: ['admin', 'tournaments'] });
          void qc.invalidateQueries({ queryKey: ['tournaments'] });
        }}
      />
    </div>
  );
}
