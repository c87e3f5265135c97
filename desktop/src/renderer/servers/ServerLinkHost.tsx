/**
 * A link that belongs to another server than the current one (issue #30) is never followed silently: this dialog
 * says which server it is (its name, its address) and that it is not the one the player is on, then opens it there
 * only if the player agrees (adding the server first when it is new). Mounted once for the whole app.
 */
import { useEffect, useState } from 'react';
import type { ServerLinkRequest, ServerProbe } from '../../shared/bridge';
import { Modal } from '../components/ui';
import { bridge } from '../lib/platform';
import { serverFacts } from './desktop-servers';
import { ServerIcon } from './ServerIcon';
import './servers.css';

const TARGET_TEXT: Record<ServerLinkRequest['target'], string> = {
  invite: 'an invitation to a table',
  table: 'a table',
  spectate: 'a table to watch',
  login: 'a sign-in',
};

export function ServerLinkHost() {
  const [request, setRequest] = useState<ServerLinkRequest | null>(null);
  const [probe, setProbe] = useState<ServerProbe | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const servers = bridge()?.servers;

  useEffect(() => {
    // only a bridge that keeps servers can answer such a link (older bridges never send one)
    if (!bridge()?.servers) return;
    const off = bridge()?.onDeepLink?.((link) => {
      if (link.kind !== 'server-link') return;
      setRequest(link.request);
      setProbe(null);
      setError(null);
      setBusy(false);
    });
    return () => {
      if (typeof off === 'function') off();
    };
  }, []);

  // What the server says about itself (a server not added yet has no name here).
  useEffect(() => {
    if (!request || !servers) return;
    let live = true;
    servers
      .probe(request.server)
      .then((p) => live && setProbe(p))
      .catch(
        () => live && setProbe({ ok: false, error: 'unreachable', message: `Could not reach ${request.server}.` }),
      );
    return () => {
      live = false;
    };
  }, [request, servers]);

  if (!request || !servers) return null;
  const answer = async (accept: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const r = await servers.answerLink(request.id, accept);
      if (!accept || r === null) setRequest(null);
      else if (!r.ok) {
        setError(r.message);
        setBusy(false);
      }
      // accepted: main reloads the page on that server
    } catch {
      setError('Could not open that link.');
      setBusy(false);
    }
  };
  const name = probe?.ok ? probe.info.name : request.known?.name;
  const icon = probe?.ok ? probe.info.icon : (request.known?.icon ?? null);
  const refused = probe && !probe.ok ? probe.message : null;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && void answer(false)}
      title="This link is for another server"
      className="server-link-dialog"
    >
      <div className="server-preview server-link-target">
        <ServerIcon name={name ?? request.server.replace(/^https?:\/\//, '')} icon={icon} size={52} />
        <div className="server-preview-text">
          <div className="server-name">{name ?? (probe ? 'Unknown server' : 'Checking the server…')}</div>
          <div className="server-address muted" data-testid="server-link-address">
            {request.server}
          </div>
          {probe?.ok && <div className="server-facts muted">{serverFacts(probe.info)}</div>}
        </div>
      </div>
      <p className="server-link-warning">
        It opens {TARGET_TEXT[request.target]} on <strong>{name ?? request.server}</strong>, which is{' '}
        <strong>not the server you are on now</strong>
        {request.current ? ` (${request.current.name}, ${request.current.address})` : ''}.{' '}
        {request.known
          ? 'You added it before.'
          : 'You have not added it yet: opening the link adds it to your servers.'}
      </p>
      {(error ?? refused) && (
        <p className="form-error" role="alert">
          {error ?? refused}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void answer(false)} autoFocus>
          {request.current ? `Stay on ${request.current.name}` : 'Not now'}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || !probe?.ok}
          onClick={() => void answer(true)}
        >
          {busy ? 'Opening…' : `Open on ${name ?? 'that server'}`}
        </button>
      </div>
    </Modal>
  );
}
