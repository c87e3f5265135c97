/**
 * Issue #27: what the wire shows of a tournament (lobby list, tournament page, player history).
 */
import type {
  TournamentHistoryItem,
  TournamentMe,
  TournamentMatchView,
  TournamentSummary,
  TournamentView,
} from '../protocol/tournaments';
import { entrantOfUser, roundCount } from './bracket';
import { currentRound, droppedAtStart, isStillIn, matchOfUser, registeredPlayers } from './engine';
import { prizePool } from './prizes';
import type { Match, TournamentState } from './types';

/**
 * The lobby row. `prizePool`: a sit-and-go registering shows the pool when full (it starts only then); a scheduled one
 * the pool as it stands; after the start the pool of the players playing.
 */
export function summaryOf(s: TournamentState, createdByName: string): TournamentSummary {
  const c = s.config;
  const players = registeredPlayers(s);
  const poolPlayers = s.status === 'REGISTERING' && c.kind === 'sit_and_go' ? c.size : players;
  return {
    id: s.id,
    name: c.name,
    kind: c.kind,
    mode: c.mode,
    size: c.size,
    buyIn: c.buyIn,
    status: s.status,
    registered: players,
    prizePool: prizePool(c.buyIn, poolPlayers),
    prizeSplit: [...c.prizeSplit],
    startsAt: c.startsAt,
    registrationOpensAt: c.registrationOpensAt,
    minEntrants: c.minEntrants,
    createdAt: s.createdAt,
    createdByName,
    round: s.status === 'RUNNING' ? (currentRound(s)?.number ?? null) : null,
    roundCount: roundCount(c),
  };
}

/** The viewer's part in a tournament, or null when they are not registered (or were dropped at the start). */
export function meOf(s: TournamentState, viewerId: string): TournamentMe | null {
  const reg = s.registrations.find((r) => r.userId === viewerId);
  if (!reg || droppedAtStart(s).some((r) => r.userId === viewerId)) return null;
  const entrant = entrantOfUser(s, viewerId);
  return {
    registered: true,
    partnerId: entrant ? (entrant.players.find((p) => p.userId !== viewerId)?.userId ?? null) : reg.partnerId,
    eliminated: entrant !== null && !isStillIn(s, entrant.id),
  };
}

/** The lobby row for a signed-in player: the summary plus their part (`me`, never null: registered false). */
export function summaryFor(s: TournamentState, createdByName: string, viewerId: string): TournamentSummary {
  return {
    ...summaryOf(s, createdByName),
    me: meOf(s, viewerId) ?? { registered: false, partnerId: null, eliminated: false },
  };
}

function matchView(m: Match, live: Record<string, number> | undefined): TournamentMatchView {
  return {
    id: m.id,
    round: m.round,
    status: m.status,
    entrantIds: [...m.entrantIds],
    gameId: m.gameId,
    seatDeadline: m.seatDeadline,
    scores: m.result?.scores ? { ...m.result.scores } : m.status === 'PLAYING' && live ? { ...live } : null,
    advanced: m.result ? [...m.result.advanced] : [],
    places: m.result ? { ...m.result.places } : null,
    walkover: m.result?.walkover ?? false,
    closed: m.result?.closed === true,
    ...(m.present ? { present: [...m.present] } : {}),
  };
}

/**
 * The tournament page. `viewerId` null (the socket broadcast) → no `me` / `nextMatch`; `liveScores` = matchId →
 * entrantId → score of the games being played.
 */
export function tournamentView(
  s: TournamentState,
  createdByName: string,
  viewerId: string | null,
  liveScores?: Record<string, Record<string, number>>,
): TournamentView {
  const view: TournamentView = {
    ...summaryOf(s, createdByName),
    rules: s.config.rules,
    noShowMs: s.config.noShowMs,
    registrations: s.registrations.map((r) => ({ userId: r.userId, username: r.username, partnerId: r.partnerId })),
    entrants: s.entrants.map((e) => ({ ...e, players: e.players.map((p) => ({ ...p })) })),
    rounds: s.rounds.map((r) => ({
      number: r.number,
      matches: r.matches.map((m) => matchView(m, liveScores?.[m.id])),
    })),
    standings: s.standings.map((x) => ({ ...x })),
    payouts: s.payouts.map((p) => ({ ...p })),
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    cancelReason: s.cancelReason,
  };
  if (viewerId !== null) {
    view.me = meOf(s, viewerId);
    const m = matchOfUser(s, viewerId);
    view.nextMatch = m ? { matchId: m.id, gameId: m.gameId, seatDeadline: m.seatDeadline } : null;
  }
  return view;
}

/** A player's line in their history: null unless they took part (registered and not dropped at the start). */
export function historyItemOf(s: TournamentState, userId: string): TournamentHistoryItem | null {
  const entrant = entrantOfUser(s, userId);
  const registered = s.registrations.some((r) => r.userId === userId);
  if (!registered || (s.entrants.length > 0 && !entrant)) return null;
  const games: TournamentHistoryItem['games'] = [];
  if (entrant) {
    for (const r of s.rounds) {
      for (const m of r.matches) {
        if (!m.entrantIds.includes(entrant.id) || m.gameId === null) continue;
        // a closed table's game has no replay (it never finished)
        if (m.status !== 'PLAYING' && !(m.status === 'DONE' && m.result && !m.result.walkover && !m.result.closed))
          continue;
        if (m.present && !m.present.includes(entrant.id)) continue;
        games.push({ matchId: m.id, round: m.round, gameId: m.gameId });
      }
    }
  }
  const standing = entrant ? s.standings.find((x) => x.entrantId === entrant.id) : undefined;
  return {
    tournamentId: s.id,
    name: s.config.name,
    mode: s.config.mode,
    size: s.config.size,
    status: s.status,
    finishedAt: s.finishedAt,
    place: standing?.place ?? null,
    prize: s.payouts.filter((p) => p.userId === userId).reduce((a, p) => a + p.amount, 0),
    games,
  };
}
