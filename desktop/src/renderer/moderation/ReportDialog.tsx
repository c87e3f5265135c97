import { useEffect, useId, useState } from 'react';
import {
  PLAYER_REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_TEXT_MAX,
  REPORTS_PATH,
  parseReportRequest,
  type PlayerReportCategory,
  type ReportContextInput,
  type ReportReceipt,
} from '@spades/common';
import { Modal } from '../components/ui';
import { api, errorText } from '../lib/api';

export interface ReportTarget {
  userId: string;
  username: string;
  context: ReportContextInput;
}

const FROM: Record<ReportContextInput['kind'], string> = {
  profile: 'their profile',
  game: 'this table',
  lobby_chat: 'a lobby chat line',
  table_chat: 'a table chat line',
};

/**
 * "Report" (issue #25) from a seat, a profile or a chat line: a category and optional words. The server captures
 * the chat lines or the game itself; the reporter gets the server's confirmation.
 */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  const [category, setCategory] = useState<PlayerReportCategory | ''>('');
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<string | null>(null);
  const catId = useId();
  const textId = useId();
  useEffect(() => {
    if (target) {
      setCategory(target.context.kind === 'lobby_chat' || target.context.kind === 'table_chat' ? 'abusive_chat' : '');
      setText('');
      setError('');
      setReceipt(null);
    }
  }, [target]);
  if (!target) return null;
  const submit = async () => {
    const checked = parseReportRequest({ userId: target.userId, category, text, context: target.context });
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const r = await api.post<ReportReceipt>(REPORTS_PATH, checked.value);
      const msg = r?.message || 'Thank you: a moderator will look at your report.';
      setReceipt(msg);
    } catch (e) {
      setError(errorText(e, 'The report could not be sent'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={`Report ${target.username}`}
      description={`From ${FROM[target.context.kind]}. Moderators see what was said or played there.`}
      className="modal-md"
    >
      {receipt ? (
        <>
          <p role="status" data-testid="report-receipt">
            {receipt}
          </p>
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
              Close
            </button>
          </div>
        </>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label className="field" htmlFor={catId}>
            <span>Reason</span>
            <select
              id={catId}
              className="select"
              value={category}
              onChange={(e) => setCategory(e.target.value as PlayerReportCategory)}
              required
            >
              <option value="" disabled>
                Choose a reason
              </option>
              {PLAYER_REPORT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {REPORT_CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          </label>
          <label className="field" htmlFor={textId}>
            <span>What happened (optional)</span>
            <textarea
              id={textId}
              className="textarea"
              rows={3}
              maxLength={REPORT_TEXT_MAX}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="btn btn-danger" disabled={!category || busy}>
              {busy ? 'Sending…' : 'Send report'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
