/**
 * `/servers` in the desktop app (issue #30): the first-run screen and File › Servers…. The player adds a
 * community's server by address (the app shows what the server says about itself before saving it), switches
 * between the servers kept, and forgets one. Each keeps its own session. Also the "check for updates" setting.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import type { SavedServer, ServerProbe, UpdateState } from '../../shared/bridge';
import { ConfirmDialog, Logo } from '../components/ui';
import { bridge } from '../lib/platform';
import { serverFacts, serversBridge } from './desktop-servers';
import { ServerIcon } from './ServerIcon';
import './servers.css';

export function ServersPage() {
  const servers = serversBridge();
  if (!servers) return <Navigate to="/" replace />;
  return <ServerChooser />;
}

function ServerChooser() {
  const servers = serversBridge()!;
  const current = servers.current();
  const [list, setList] = useState<SavedServer[] | null>(null);
  const [forgetting, setForgetting] = useState<SavedServer | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const reload = useCallback(() => {
    servers
      .list()
      .then(setList)
      .catch(() => setList([]));
  }, [servers]);
  useEffect(reload, [reload]);

  const switchTo = async (s: SavedServer) => {
    setBusyId(s.id);
    // main reloads the page on that server
    if (!(await servers.switchTo(s.id).catch(() => false))) setBusyId(null);
  };
  const forget = async (s: SavedServer) => {
    setForgetting(null);
    await servers.forget(s.id).catch(() => false);
    reload();
  };

  const firstRun = !current && list !== null && list.length === 0;
  return (
    <div className="servers-page">
      <main className="servers-panel" aria-labelledby="servers-title">
        <div className="servers-head">
          <Logo size={36} withText />
          {current && (
            <Link className="btn btn-ghost btn-sm" to="/">
              Back to {current.name}
            </Link>
          )}
        </div>
        <h1 id="servers-title" className="servers-title">
          {firstRun ? 'Join a Spades community' : 'Servers'}
        </h1>
        <p className="muted servers-sub">
          {firstRun
            ? 'Each community runs its own server. Enter the address your community gave you.'
            : 'Each server keeps its own account and sign-in. Switch any time; your seat and session stay on each.'}
        </p>

        {list && list.length > 0 && (
          <ul className="server-list" aria-label="Your servers">
            {list.map((s) => (
              <li key={s.id} className={`server-row${s.current ? ' is-current' : ''}`}>
                <ServerIcon name={s.name} icon={s.icon} />
                <div className="server-row-text">
                  <div className="server-name">
                    {s.name}
                    {s.current && <span className="badge badge-green">Current</span>}
                    {s.signedIn && <span className="badge badge-neutral">Signed in</span>}
                  </div>
                  <div className="server-address muted">{s.address}</div>
                </div>
                <div className="server-row-actions">
                  {!s.current && (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={busyId !== null}
                      onClick={() => void switchTo(s)}
                    >
                      {busyId === s.id ? 'Switching…' : 'Switch'}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-danger-ghost btn-sm"
                    aria-label={`Forget ${s.name}`}
                    onClick={() => setForgetting(s)}
                  >
                    Forget
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}

        <AddServer onAdded={(s) => void switchTo(s)} />
        <UpdateSetting />
      </main>
      <ConfirmDialog
        open={forgetting !== null}
        title={`Forget ${forgetting?.name ?? 'this server'}?`}
        message={
          forgetting?.current
            ? 'You are on this server now. The app signs you out of it and forgets its address; you can add it again later.'
            : 'The app signs you out of it and forgets its address; you can add it again later.'
        }
        yesLabel="Forget"
        noLabel="Keep"
        danger
        onYes={() => forgetting && void forget(forgetting)}
        onNo={() => setForgetting(null)}
      />
    </div>
  );
}

/** Address → the server's own description (name, icon, versions) → "Add and open". Nothing is saved before that. */
function AddServer({ onAdded }: { onAdded: (s: SavedServer) => void }) {
  const servers = serversBridge()!;
  const [address, setAddress] = useState('');
  const [probe, setProbe] = useState<ServerProbe | null>(null);
  const [busy, setBusy] = useState(false);

  const check = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProbe(null);
    try {
      setProbe(await servers.probe(address));
    } catch {
      setProbe({ ok: false, error: 'unreachable', message: 'Could not check that server.' });
    } finally {
      setBusy(false);
    }
  };
  const add = async () => {
    setBusy(true);
    try {
      const r = await servers.add(address);
      if (r.ok && r.server) onAdded(r.server);
      else {
        setProbe(r);
        setBusy(false);
      }
    } catch {
      setProbe({ ok: false, error: 'storage', message: 'Could not add that server.' });
      setBusy(false);
    }
  };

  return (
    <section className="server-add" aria-labelledby="server-add-title">
      <h2 id="server-add-title" className="h4">
        Add a server
      </h2>
      <form className="server-add-form" onSubmit={check}>
        <label className="field server-address-field">
          <span>Server address</span>
          <input
            name="server-address"
            placeholder="spades.example.org"
            autoComplete="url"
            spellCheck={false}
            value={address}
            onChange={(e) => {
              setAddress(e.target.value);
              setProbe(null);
            }}
            required
          />
        </label>
        <button type="submit" className="btn btn-secondary" disabled={busy || address.trim() === ''}>
          {busy && !probe ? 'Checking…' : 'Check'}
        </button>
      </form>
      {probe && !probe.ok && (
        <p className="form-error" role="alert">
          {probe.message}
        </p>
      )}
      {probe?.ok && (
        <div className="server-preview" aria-label="Server found">
          <ServerIcon name={probe.info.name} icon={probe.info.icon} size={56} />
          <div className="server-preview-text">
            <div className="server-name">{probe.info.name}</div>
            <div className="server-address muted">{probe.address}</div>
            {probe.info.description && <p className="server-description">{probe.info.description}</p>}
            <div className="server-facts muted">{serverFacts(probe.info)}</div>
          </div>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void add()}>
            Add and open
          </button>
        </div>
      )}
    </section>
  );
}

function UpdateSetting() {
  const updates = bridge()?.updates;
  const [state, setState] = useState<UpdateState | null>(null);
  useEffect(() => {
    if (!updates) return;
    let live = true;
    // a change pushed by main wins over the first answer if that arrives later
    let pushed = false;
    updates
      .state()
      .then((s) => live && !pushed && setState(s))
      .catch(() => undefined);
    const off = updates.onChange((s) => {
      pushed = true;
      setState(s);
    });
    return () => {
      live = false;
      off();
    };
  }, [updates]);
  if (!updates || !state) return null;
  return (
    <section className="server-updates" aria-label="App updates">
      <label className="check">
        <input
          type="checkbox"
          checked={state.enabled}
          onChange={(e) => void updates.setEnabled(e.target.checked).then(setState, () => undefined)}
        />
        <span>Check for app updates automatically</span>
      </label>
      <span className="muted server-update-status">{updateStatusText(state)}</span>
    </section>
  );
}

export function updateStatusText(s: UpdateState): string {
  switch (s.status) {
    case 'unsupported':
      return s.message ?? 'This build does not update itself.';
    case 'disabled':
      return 'Off.';
    case 'checking':
      return 'Checking…';
    case 'available':
    case 'downloading':
      return `Downloading ${s.version ?? 'an update'}${s.percent !== undefined ? ` (${s.percent}%)` : ''}…`;
    case 'ready':
      return `Version ${s.version ?? 'new'} is ready: restart to use it.`;
    case 'error':
      return s.message ?? 'Could not check for updates.';
    default:
      return 'Up to date.';
  }
}
