import type { LobbyPlayer } from './types';

export type PlayerFilter = 'all' | 'friends' | 'hideBlocked';

/**
 * Spec §2: filter All / Friends / Hide Blocked; sort friends first, then online first, then (in All
 * mode) blocked last. Ties keep a stable alphabetical order.
 */
export function filterAndSortPlayers(players: readonly LobbyPlayer[], filter: PlayerFilter): LobbyPlayer[] {
  const list = players.filter((p) =>
    filter === 'friends' ? p.status === 'friend' : filter === 'hideBlocked' ? p.status !== 'blocked' : true,
  );
  // Keys in the spec's order of precedence: friend, then online, then (All only) blocked.
  const rank = (p: LobbyPlayer): number[] => [
    p.status === 'friend' ? 0 : 1,
    p.online ? 0 : 1,
    filter === 'all' && p.status === 'blocked' ? 1 : 0,
  ];
  return [...list].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return a.username.localeCompare(b.username);
  });
}
