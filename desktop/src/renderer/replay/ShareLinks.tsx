/**
 * Replay share links (issue #24, ruling 15): a player of a finished private game makes a link that opens this
 * game's replay for whoever holds it (signed in or not), copies it, and revokes it when it should stop working.
 * The copied link starts with the address the player is using unless the host configured one (issue #31).
 */
import { useCallback, useEffect, useState } from 'react';
import { Copy, Link2, Trash2 } from 'lucide-react';
import { replaySharesPath, type ReplayShareLink } from '@spades/common';
import { api, errorText } from '../lib/api';
import { replayShareUrl } from '../lib/public-links';
import { useNotify } from '../components/ui';

export function ShareLinks({ gameId, gameNumber }: { gameId: string; gameNumber: number }) {
  const notify = useNotify();
  const [links, setLinks] = useState<ReplayShareLink[] | null>(null);
  const [busy, setBusy] = useState(false);
  const path = replaySharesPath(gameId);

  useEffect(() => {
    api
      .get<ReplayShareLink[]>(`${path}?game=${gameNumber}`)
      .then(setLinks, (e) => notify(errorText(e, 'Failed to load your share links')));
  }, [path, gameNumber, notify]);

  const copy = useCallback(
    async (url: string, what: string) => {
      try {
        await navigator.clipboard.writeText(url);
        notify(what);
      } catch {
        notify('Copy failed: select the link and copy it');
      }
    },
    [notify],
  );
  const create = async () => {
    setBusy(true);
    try {
      const link = await api.post<ReplayShareLink>(path, { game: gameNumber });
      setLinks((l) => [...(l ?? []), link]);
      await copy(replayShareUrl(link), 'Share link copied: anyone with it can watch this replay');
    } catch (e) {
      notify(errorText(e, 'Failed to make a share link'));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string) => {
    try {
      await api.del(`${path}/${encodeURIComponent(id)}`);
      setLinks((l) => (l ?? []).filter((x) => x.id !== id));
      notify('Share link revoked');
    } catch (e) {
      notify(errorText(e, 'Failed to revoke the link'));
    }
  };

  return (
    <section className="panel replay-panel" aria-label="Share links">
      <h2 className="h4">
        <Link2 size={15} /> Share this replay
      </h2>
      <p className="muted small">
        This game is private. A share link lets anyone who has it watch this replay, and nothing else.
      </p>
      <button type="button" className="btn btn-primary btn-sm" onClick={() => void create()} disabled={busy}>
        <Copy size={15} /> Share link
      </button>
      {links && links.length > 0 && (
        <ul className="replay-shares" aria-label="Your share links">
          {links.map((l) => (
            <li key={l.id}>
              <span className="muted small">Made {new Date(l.createdAt).toLocaleString()}</span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => void copy(replayShareUrl(l), 'Share link copied')}
                aria-label="Copy this share link"
              >
                <Copy size={13} />
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => void revoke(l.id)}
                aria-label="Revoke this share link"
              >
                <Trash2 size={13} /> Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
