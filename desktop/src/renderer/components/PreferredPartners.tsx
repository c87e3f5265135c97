/**
 * Issue #28: preferred partners on the profile — the players one partnered most in PARTNERS games of the last 90
 * days (`GET /api/quickplay/partners`); the lobby's Quick play panel offers them first for "Queue together".
 */
import { useEffect, useState } from 'react';
import type { PreferredPartner } from '@spades/common';
import { api } from '../lib/api';

export function PreferredPartners() {
  const [list, setList] = useState<PreferredPartner[] | null>(null);
  useEffect(() => {
    api.get<PreferredPartner[]>('/api/quickplay/partners').then(
      (p) => setList(Array.isArray(p) ? p : []),
      () => setList([]),
    );
  }, []);
  return (
    <section className="panel" aria-labelledby="preferred-partners">
      <h2 className="h3" id="preferred-partners">
        Preferred partners
      </h2>
      {list === null ? null : list.length === 0 ? (
        <p className="muted small">
          Play PARTNERS games to see your regular partners here; invite them from Quick play in the lobby.
        </p>
      ) : (
        <ul className="stat-list">
          {list.map((p) => (
            <li key={p.userId} className="stat-row">
              <span>{p.username}</span>
              <span className="muted small num">
                {p.games} game{p.games === 1 ? '' : 's'} together
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
