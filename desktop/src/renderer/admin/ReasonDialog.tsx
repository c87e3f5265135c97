import { useEffect, useId, useState, type ReactNode } from 'react';
import { STAFF_REASON_MAX, USERNAME_MAX, type SanctionRequest } from '@spades/common';
import { Modal } from '../components/ui';
import { errorText } from '../lib/api';
import { DURATIONS } from './format';

/**
 * Every console action asks for a reason (1–STAFF_REASON_MAX characters; it goes to the audit log and, for
 * sanctions, to the player). `onSubmit` may throw: the server's message is shown in the dialog, nothing closes.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  danger = false,
  children,
  canSubmit = true,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  children?: ReactNode;
  canSubmit?: boolean;
  onSubmit: (reason: string) => Promise<unknown>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => {
    if (open) {
      setReason('');
      setError('');
    }
  }, [open]);
  const trimmed = reason.trim();
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      title={title}
      description={description}
      className="modal-md"
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!trimmed || !canSubmit || busy) return;
          setBusy(true);
          setError('');
          onSubmit(trimmed)
            .then(() => onOpenChange(false))
            .catch((err: unknown) => setError(errorText(err, 'The action failed')))
            .finally(() => setBusy(false));
        }}
      >
        {children}
        <label className="field" htmlFor={id}>
          <span>Reason (required, kept in the audit log)</span>
          <textarea
            id={id}
            className="textarea"
            value={reason}
            maxLength={STAFF_REASON_MAX}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </button>
          <button
            type="submit"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            disabled={!trimmed || !canSubmit || busy}
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export type SanctionKindChoice = SanctionRequest['kind'];

export interface SanctionDraft {
  kind: SanctionKindChoice;
  minutes: number | null;
  newUsername: string;
}

export const emptyDraft = (kind: SanctionKindChoice = 'warn'): SanctionDraft => ({
  kind,
  minutes: 60,
  newUsername: '',
});

export function draftToRequest(d: SanctionDraft, reason: string): SanctionRequest {
  switch (d.kind) {
    case 'warn':
      return { kind: 'warn', reason };
    case 'mute':
      return { kind: 'mute', reason, minutes: d.minutes };
    case 'ban':
      return { kind: 'ban', reason, minutes: d.minutes };
    case 'rename':
      return { kind: 'rename', reason, newUsername: d.newUsername.trim() };
  }
}

export const draftReady = (d: SanctionDraft) => d.kind !== 'rename' || d.newUsername.trim().length > 0;

const KIND_LABELS: Record<SanctionKindChoice, string> = {
  warn: 'Warn',
  mute: 'Mute',
  ban: 'Ban',
  rename: 'Force rename',
};

/** The sanction fields (kind, duration or new name), shared by the player page and a report's resolution. */
export function SanctionFields({
  draft,
  onChange,
  kinds = ['warn', 'mute', 'ban', 'rename'],
}: {
  draft: SanctionDraft;
  onChange: (d: SanctionDraft) => void;
  kinds?: SanctionKindChoice[];
}) {
  const durId = useId();
  const nameId = useId();
  return (
    <>
      {kinds.length > 1 && (
        <div className="segmented" role="radiogroup" aria-label="Action">
          {kinds.map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              aria-checked={draft.kind === k}
              className={draft.kind === k ? 'active' : ''}
              onClick={() => onChange({ ...draft, kind: k })}
            >
              {KIND_LABELS[k]}
            </button>
          ))}
        </div>
      )}
      {(draft.kind === 'mute' || draft.kind === 'ban') && (
        <label className="field" htmlFor={durId}>
          <span>Duration</span>
          <select
            id={durId}
            className="select"
            value={draft.minutes === null ? 'forever' : String(draft.minutes)}
            onChange={(e) =>
              onChange({ ...draft, minutes: e.target.value === 'forever' ? null : Number(e.target.value) })
            }
          >
            {DURATIONS.map((d) => (
              <option key={d.label} value={d.minutes === null ? 'forever' : String(d.minutes)}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {draft.kind === 'rename' && (
        <label className="field" htmlFor={nameId}>
          <span>New name</span>
          <input
            id={nameId}
            value={draft.newUsername}
            maxLength={USERNAME_MAX}
            onChange={(e) => onChange({ ...draft, newUsername: e.target.value })}
            required
          />
        </label>
      )}
    </>
  );
}
