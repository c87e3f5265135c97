import type { LobbyPlayer } from './types';

export type PlayerFilter = 'all' | 'friends' | 'hideBlocked';

/**
 * Spec §2: filter All / Friends / Hide Blocked; sort friends first, then online first, then (in All
 * mode) blocked last. "Last" is taken literally: blocked players sink below everyone, online or not (a player
 * who blocked someone wants them out of the way); among the rest friends come first, then online players.
 * Ties keep a stable alphabetical order.
 */
export function filterAndSortPlayers(players: readonly LobbyPlayer[], filter: PlayerFilter): LobbyPlayer[] {
  const list = players.filter((p) =>
    filter === 'friends' ? p.status === 'friend' : filter === 'hideBlocked' ? p.status !== 'blocked' : true,
  );
  const rank = (p: LobbyPlayer): number[] => [
    filter === 'all' && p.status === 'blocked' ? 1 : 0,
    p.status === 'friend' ? 0 : 1,
    p.online ? 0 : 1,
  ];
  return [...list].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return a.username.localeCompare(b.username);
  });
}
