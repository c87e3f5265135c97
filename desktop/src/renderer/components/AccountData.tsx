import { useEffect, useState, type FormEvent } from 'react';
import { Download, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { AccountExport, DeleteAccountResponse, DeletionInfo } from '@spades/common';
import { api } from '../lib/api';
import { getToken } from '../lib/storage';
import { useSession } from '../session/session';
import { Modal, Spinner, useNotify } from './ui';

/**
 * Issue #26, the profile's "Your data": download everything the server stores about the player (one JSON file),
 * and delete the account — a dialog that says what happens, asks for the password (or the username typed, for an
 * account without one), then signs the player out.
 */
export function AccountData() {
  const notify = useNotify();
  const [downloading, setDownloading] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const doc = await api.get<AccountExport>('/api/users/me/data');
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `spades-account-${doc.exportedAt.slice(0, 10)}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      notify((e as Error).message || 'Download failed');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div data-testid="account-data">
      <p className="muted small" style={{ marginTop: 0 }}>
        Your profile, games, chat lines you wrote, coin ledger, ratings, friends and blocks, reports you filed,
        sanctions and options, as one JSON file.
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <button type="button" className="btn btn-secondary" onClick={() => void download()} disabled={downloading}>
          <Download size={16} /> {downloading ? 'Preparing...' : 'Download my data'}
        </button>
        <button type="button" className="btn btn-danger-ghost" onClick={() => setDeleting(true)}>
          <Trash2 size={16} /> Delete my account
        </button>
      </div>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </div>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { logout } = useSession();
  const notify = useNotify();
  const [info, setInfo] = useState<DeletionInfo | null>(null);
  const [loadError, setLoadError] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .get<DeletionInfo>('/api/users/me/deletion')
      .then((i) => live && setInfo(i))
      .catch((e: Error) => live && setLoadError(e.message));
    return () => {
      live = false;
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!info) return;
    setBusy(true);
    setError('');
    try {
      await api.post<DeleteAccountResponse>(
        '/api/users/me/deletion',
        info.hasPassword ? { password: secret } : { confirm: secret },
      );
      // the server's `session_expired` usually arrives first and has signed the player out with this same message
      if (getToken()) {
        notify('Your account was deleted', 'info');
        logout();
      }
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  const blocked = !!info && info.openTables.length > 0;
  return (
    <Modal open onOpenChange={(o) => !o && !busy && onClose()} title="Delete your account?" className="account-delete">
      {!info ? (
        loadError ? (
          <p className="form-error">{loadError}</p>
        ) : (
          <Spinner />
        )
      ) : (
        <form onSubmit={(e) => void submit(e)} data-testid="delete-account-form">
          <ul className="small" style={{ paddingLeft: 18, display: 'grid', gap: 4 }} data-testid="deletion-effects">
            {info.effects.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {blocked && (
            <p className="form-error" role="alert">
              Leave your tables first: you are still part of {info.openTables.length} open table
              {info.openTables.length === 1 ? '' : 's'} (seated, watching, or in its game or chat). Try again once{' '}
              {info.openTables.length === 1 ? 'it has' : 'they have'} closed.
            </p>
          )}
          {blocked && (
            <ul className="small" style={{ paddingLeft: 18, margin: '4px 0 0' }} data-testid="deletion-open-tables">
              {info.openTables.map((id, i) => (
                <li key={id}>
                  <Link to={`/table/${id}`} onClick={onClose}>
                    Open table {i + 1}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <label className="field" style={{ marginTop: 12 }}>
            {info.hasPassword ? 'Your password' : `Type your username (${info.username}) to confirm`}
            <input
              type={info.hasPassword ? 'password' : 'text'}
              autoComplete={info.hasPassword ? 'current-password' : 'off'}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              disabled={busy || blocked}
              data-testid="delete-account-secret"
              autoFocus
            />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 16 }}>
            <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
              Keep my account
            </button>
            <button type="submit" className="btn btn-danger" disabled={busy || blocked || !secret}>
              {busy ? 'Deleting...' : 'Delete my account'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
