import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import {
  INVITE_CODE_MAX_USES,
  INVITE_CODE_NOTE_MAX,
  formatInviteCode,
  type InviteCode,
  type InviteCodeCreateRequest,
} from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { when } from './format';
import { ReasonDialog } from './ReasonDialog';

/** Invite codes (admins): registration by invitation takes one; each has a use count, an expiry, a note. */
export function InviteCodes() {
  const qc = useQueryClient();
  const notify = useNotify();
  const q = useQuery({
    queryKey: ['admin', 'invite-codes'],
    queryFn: () => api.get<InviteCode[]>('/api/admin/invite-codes'),
  });
  const [create, setCreate] = useState<{ maxUses: string; days: string; note: string } | null>(null);
  const [revoke, setRevoke] = useState<InviteCode | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['admin', 'invite-codes'] });
  const codes = Array.isArray(q.data) ? q.data : [];
  const maxUses = create?.maxUses.trim() ? Number(create.maxUses) : null;
  const days = create?.days.trim() ? Number(create.days) : null;
  const valid =
    (maxUses === null || (maxUses >= 1 && maxUses <= INVITE_CODE_MAX_USES)) &&
    (days === null || (days >= 1 && days <= 365));
  return (
    <section className="console-panel console-page" aria-labelledby="s-inv">
      <div className="console-head">
        <h2 id="s-inv" className="h3" style={{ marginRight: 'auto' }}>
          Invite codes
        </h2>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => setCreate({ maxUses: '1', days: '', note: '' })}
        >
          New code
        </button>
      </div>
      <p className="hint">Used when registration is “Invite codes only”.</p>
      {q.error ? <p className="form-error">{errorText(q.error, 'Could not load the invite codes')}</p> : null}
      <div className="data-wrap">
        <table className="data" aria-label="Invite codes">
          <thead>
            <tr>
              <th>Code</th>
              <th>Note</th>
              <th className="num">Uses</th>
              <th>Expires</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {codes.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  No invite codes.
                </td>
              </tr>
            ) : (
              codes.map((c) => (
                <tr key={c.code}>
                  <td className="nowrap code">
                    {formatInviteCode(c.code)}{' '}
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Copy ${formatInviteCode(c.code)}`}
                      onClick={() =>
                        void navigator.clipboard
                          ?.writeText(formatInviteCode(c.code))
                          .then(() => notify('Copied', 'info'))
                      }
                    >
                      <Copy size={14} />
                    </button>
                  </td>
                  <td>{c.note ?? ''}</td>
                  <td className="num">
                    {c.uses}
                    {c.maxUses !== null && ` / ${c.maxUses}`}
                  </td>
                  <td className="nowrap">{c.expiresAt ? when(c.expiresAt) : 'never'}</td>
                  <td>
                    {c.active ? (
                      <span className="badge badge-green">active</span>
                    ) : (
                      <span className="badge badge-dim">{c.revokedAt ? 'revoked' : 'used up or expired'}</span>
                    )}
                  </td>
                  <td className="actions">
                    {!c.revokedAt && (
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRevoke(c)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {create && (
        <ReasonDialog
          open
          onOpenChange={(o) => !o && setCreate(null)}
          title="New invite code"
          confirmLabel="Create code"
          canSubmit={valid}
          onSubmit={async (reason) => {
            const body: InviteCodeCreateRequest = {
              maxUses,
              expiresInDays: days,
              note: create.note.trim() || null,
              reason,
            };
            const code = await api.post<InviteCode>('/api/admin/invite-codes', body);
            notify(`Invite code ${formatInviteCode(code.code)} created`, 'info');
            refresh();
          }}
        >
          <label className="field">
            <span>Uses (empty = unlimited)</span>
            <input
              inputMode="numeric"
              value={create.maxUses}
              onChange={(e) => setCreate({ ...create, maxUses: e.target.value.replace(/[^\d]/g, '') })}
            />
          </label>
          <label className="field">
            <span>Expires after days (empty = never)</span>
            <input
              inputMode="numeric"
              value={create.days}
              onChange={(e) => setCreate({ ...create, days: e.target.value.replace(/[^\d]/g, '') })}
            />
          </label>
          <label className="field">
            <span>Note (who it is for)</span>
            <input
              value={create.note}
              maxLength={INVITE_CODE_NOTE_MAX}
              onChange={(e) => setCreate({ ...create, note: e.target.value })}
            />
          </label>
        </ReasonDialog>
      )}
      {revoke && (
        <ReasonDialog
          open
          onOpenChange={(o) => !o && setRevoke(null)}
          title={`Revoke ${formatInviteCode(revoke.code)}`}
          confirmLabel="Revoke"
          danger
          onSubmit={async (reason) => {
            await api.post(`/api/admin/invite-codes/${revoke.code}/revoke`, { reason });
            notify('Invite code revoked', 'info');
            refresh();
          }}
        />
      )}
    </section>
  );
}
