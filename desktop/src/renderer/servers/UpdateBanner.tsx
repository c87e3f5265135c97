/** "Update ready — restart" (issue #30): shown once the desktop app has downloaded a new version. */
import { useEffect, useState } from 'react';
import type { UpdateState } from '../../shared/bridge';
import { bridge } from '../lib/platform';
import { ProtocolBanner } from './ProtocolBanner';
import './servers.css';

/** The desktop app's own notices: "update ready — restart", and a server that no longer speaks our protocol. */
export function UpdateBanner() {
  return (
    <>
      <ProtocolBanner />
      <UpdateReady />
    </>
  );
}

function UpdateReady() {
  const updates = bridge()?.updates;
  const [state, setState] = useState<UpdateState | null>(null);
  const [dismissed, setDismissed] = useState(false);
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
  if (!updates || state?.status !== 'ready' || dismissed) return null;
  return (
    <div className="update-banner" role="status">
      <span>
        Spades {state.version ?? ''} is ready. <span className="muted">Restart to update.</span>
      </span>
      <button type="button" className="btn btn-primary btn-sm" onClick={() => void updates.restart()}>
        Restart now
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDismissed(true)}>
        Later
      </button>
    </div>
  );
}
