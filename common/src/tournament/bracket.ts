/**
 * Issue #27: seeding, pairing and the shape of the bracket. Pure: no clock, no randomness — ratings decide, the
 * registration order breaks ties.
 *
 * Both formats have the same tree: round r has `size / 4 / 2^(r-1)` matches (PARTNERS: two teams a match, SOLO: up to
 * four players a table) and match j of round r+1 takes the entrants sent on by matches 2j and 2j+1 of round r.
 */
import type {
  Entrant,
  Match,
  MatchResult,
  Registration,
  Round,
  TournamentConfig,
  TournamentSize,
  TournamentState,
} from './types';

type Player = Entrant['players'][number];

/** Rounds of a tournament: 8 players → 2, 16 → 3 (both formats). */
export function roundCount(config: Pick<TournamentConfig, 'size'>): number {
  return config.size === 16 ? 3 : 2;
}

/** Matches (tables) in a round. */
export function matchesInRound(size: TournamentSize, round: number): number {
  return Math.max(1, (size / 4) >> (round - 1));
}

/** How many entrants a match sends on: PARTNERS 1; SOLO 2 (the final: 1, the champion). */
export function advanceCount(config: Pick<TournamentConfig, 'mode' | 'size'>, round: number): number {
  if (config.mode === 'PARTNERS') return 1;
  return round >= roundCount(config) ? 1 : 2;
}

export function tournamentMatchId(round: number, index: number): string {
  return `r${round}m${index}`;
}

const player = (r: Registration): Player => ({ userId: r.userId, username: r.username, rating: r.rating });

/**
 * The entrants at the start, seeded (1 = strongest), and the registrations left without an entrant.
 * PARTNERS: registered teams stay together; singles are sorted by rating (registration order breaks ties), the
 * single who registered last is dropped when their number is odd, then the strongest is paired with the weakest, the
 * 2nd with the 2nd weakest, … Teams are seeded by the sum of their ratings, ties by their first registration.
 * SOLO: every player is an entrant, seeded by rating, ties by registration order.
 */
export function buildEntrants(
  config: Pick<TournamentConfig, 'mode'>,
  registrations: Registration[],
): { entrants: Entrant[]; dropped: Registration[] } {
  const order = new Map(registrations.map((r, i) => [r.userId, i]));
  const byRating = (a: Registration, b: Registration) =>
    b.rating - a.rating || (order.get(a.userId) ?? 0) - (order.get(b.userId) ?? 0);
  if (config.mode === 'SOLO') {
    const sorted = [...registrations].sort(byRating);
    return { entrants: sorted.map((r, i) => ({ id: `e${i + 1}`, players: [player(r)], seed: i + 1 })), dropped: [] };
  }
  const teams: { players: Player[]; first: number }[] = [];
  const seen = new Set<string>();
  const singles: Registration[] = [];
  for (const r of registrations) {
    if (seen.has(r.userId)) continue;
    const partner = r.partnerId === null ? undefined : registrations.find((p) => p.userId === r.partnerId);
    if (partner && partner.partnerId === r.userId && !seen.has(partner.userId)) {
      seen.add(r.userId);
      seen.add(partner.userId);
      teams.push({ players: [player(r), player(partner)], first: order.get(r.userId) ?? 0 });
    } else {
      seen.add(r.userId);
      singles.push(r);
    }
  }
  const dropped: Registration[] = [];
  if (singles.length % 2 === 1) dropped.push(singles.pop() as Registration); // the last single to register
  const sorted = [...singles].sort(byRating);
  for (let i = 0; i < sorted.length / 2; i++) {
    const strong = sorted[i];
    const weak = sorted[sorted.length - 1 - i];
    teams.push({
      players: [player(strong), player(weak)],
      first: Math.min(order.get(strong.userId) ?? 0, order.get(weak.userId) ?? 0),
    });
  }
  const rating = (t: { players: Player[] }) => t.players.reduce((a, p) => a + p.rating, 0);
  teams.sort((a, b) => rating(b) - rating(a) || a.first - b.first);
  return {
    entrants: teams.map((t, i) => ({ id: `e${i + 1}`, players: t.players, seed: i + 1 })),
    dropped,
  };
}

/** Standard bracket order of `n` (a power of two) seeds: 1 and 2 meet only in the final. [1,8,4,5,2,7,3,6] for 8. */
export function bracketOrder(n: number): number[] {
  let order = [1];
  while (order.length < n) {
    const m = order.length * 2;
    order = order.flatMap((s) => [s, m + 1 - s]);
  }
  return order;
}

/** Snake seating of seeds 1..n over `tables` tables: row 0 left to right, row 1 right to left, … */
export function snakeTables(n: number, tables: number): number[][] {
  const out: number[][] = Array.from({ length: tables }, () => []);
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / tables);
    const col = i % tables;
    out[row % 2 === 0 ? col : tables - 1 - col].push(i + 1);
  }
  return out;
}

function newMatch(round: number, index: number, entrantIds: string[]): Match {
  return {
    id: tournamentMatchId(round, index),
    round,
    entrantIds,
    status: 'PENDING',
    gameId: null,
    seatDeadline: null,
    result: null,
  };
}

/** Round 1 from the seeded entrants (matches are PENDING; `resolveSmallMatches` settles byes). */
export function firstRound(config: Pick<TournamentConfig, 'mode' | 'size'>, entrants: Entrant[]): Round {
  const count = matchesInRound(config.size, 1);
  const idOf = (seed: number) => entrants.find((e) => e.seed === seed)?.id;
  const matches: Match[] = [];
  if (config.mode === 'PARTNERS') {
    const order = bracketOrder(count * 2);
    for (let j = 0; j < count; j++) {
      const ids = [order[2 * j], order[2 * j + 1]].map(idOf).filter((x): x is string => x !== undefined);
      matches.push(newMatch(1, j, ids));
    }
  } else {
    snakeTables(entrants.length, count).forEach((seeds, j) =>
      matches.push(
        newMatch(
          1,
          j,
          seeds.map(idOf).filter((x): x is string => x !== undefined),
        ),
      ),
    );
  }
  return { number: 1, matches };
}

/** Round r+1 from the finished round r: match j takes the entrants sent on by 2j and 2j+1, interleaved. */
export function nextRound(prev: Round): Round {
  const round = prev.number + 1;
  const matches: Match[] = [];
  for (let j = 0; j < prev.matches.length / 2; j++) {
    const a = prev.matches[2 * j]?.result?.advanced ?? [];
    const b = prev.matches[2 * j + 1]?.result?.advanced ?? [];
    const ids: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i < a.length) ids.push(a[i]);
      if (i < b.length) ids.push(b[i]);
    }
    matches.push(newMatch(round, j, ids));
  }
  return { number: round, matches };
}

export function seedOf(s: Pick<TournamentState, 'entrants'>, entrantId: string): number {
  return s.entrants.find((e) => e.id === entrantId)?.seed ?? Number.MAX_SAFE_INTEGER;
}

export function findMatch(s: Pick<TournamentState, 'rounds'>, id: string): Match | null {
  for (const r of s.rounds) for (const m of r.matches) if (m.id === id) return m;
  return null;
}

export function entrantOfUser(s: Pick<TournamentState, 'entrants'>, userId: string): Entrant | null {
  return s.entrants.find((e) => e.players.some((p) => p.userId === userId)) ?? null;
}

/**
 * Competition ranking (1, 2, 2, 4) of the ranked entrants by a raw key (lower = better), e.g. the game's places with
 * a bot in between: only the entrants count.
 */
export function competitionRank(raw: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const values = Object.values(raw);
  for (const [id, v] of Object.entries(raw)) out[id] = 1 + values.filter((w) => w < v).length;
  return out;
}

/**
 * The result of a match from the places of the entrants that played (`ranked`, lower = better, any scale) and the
 * entrants that did not (`absent`): ranked entrants are re-ranked among themselves, absent ones share the next place;
 * the best `advanceCount` ranked entrants go on (ties by seed).
 */
export function resultOf(
  s: Pick<TournamentState, 'entrants' | 'config'>,
  match: Match,
  ranked: Record<string, number>,
  extra: { walkover: boolean; gameId: string | null; scores: Record<string, number> | null },
): MatchResult {
  if (Object.keys(ranked).length === 0 && match.entrantIds.length > 0) {
    // nobody ranked (nobody sat at a game that ran with bots only): the best seeds go on, as in a walkover
    ranked = Object.fromEntries(
      [...match.entrantIds]
        .sort((a, b) => seedOf(s, a) - seedOf(s, b))
        .slice(0, advanceCount(s.config, match.round))
        .map((id, i) => [id, i + 1]),
    );
  }
  const places = competitionRank(ranked);
  const rankedIds = Object.keys(places);
  const absent = match.entrantIds.filter((id) => !(id in places));
  for (const id of absent) places[id] = rankedIds.length + 1;
  const order = [...rankedIds].sort((a, b) => places[a] - places[b] || seedOf(s, a) - seedOf(s, b));
  return {
    advanced: order.slice(0, advanceCount(s.config, match.round)),
    places,
    walkover: extra.walkover,
    gameId: extra.gameId,
    scores: extra.scores,
  };
}

/**
 * A walkover: the present entrants go on (by seed) when they are no more than those who advance; nobody present →
 * the best seeds go on (PARTNERS: the better seed). Returns null when the present entrants must play instead.
 */
export function walkoverResult(
  s: Pick<TournamentState, 'entrants' | 'config'>,
  match: Match,
  present: string[],
): MatchResult | null {
  const adv = advanceCount(s.config, match.round);
  const inMatch = match.entrantIds.filter((id) => present.includes(id));
  if (inMatch.length > adv) return null;
  const bySeed = (ids: string[]) => [...ids].sort((a, b) => seedOf(s, a) - seedOf(s, b));
  const goOn = inMatch.length > 0 ? bySeed(inMatch) : bySeed(match.entrantIds).slice(0, adv);
  const ranked: Record<string, number> = {};
  goOn.forEach((id, i) => (ranked[id] = i + 1));
  return resultOf(s, match, ranked, { walkover: true, gameId: match.gameId, scores: null });
}

/**
 * A match whose table closed without a finished game (staff closed a stuck table, or it was abandoned): decided by
 * the score at that moment. PARTNERS: the team ahead goes on; SOLO: the top two (the final: the top one). Every
 * entrant who took part is ranked by score, highest first (no score = 0); equal scores share a place and the better
 * seed goes on. SOLO entrants absent when the game started (`match.present`) rank last, as after a played game.
 * A table closed before its game started: every score is 0, so the best seeds go on.
 */
export function closedMatchResult(
  s: Pick<TournamentState, 'entrants' | 'config'>,
  match: Match,
  scores: Record<string, number>,
): MatchResult {
  const took = match.present ?? match.entrantIds;
  const ranked: Record<string, number> = {};
  const kept: Record<string, number> = {};
  for (const id of match.entrantIds) {
    if (!took.includes(id)) continue;
    const score = typeof scores[id] === 'number' && Number.isFinite(scores[id]) ? scores[id] : 0;
    ranked[id] = -score;
    kept[id] = score;
  }
  return { ...resultOf(s, match, ranked, { walkover: false, gameId: match.gameId, scores: kept }), closed: true };
}

/** The four seats of a match's table: PARTNERS team A 0 & 2, team B 1 & 3; SOLO entrants in 0..n-1; null = bot. */
export function matchSeats(s: TournamentState, id: string): ({ userId: string; username: string } | null)[] {
  const seats: ({ userId: string; username: string } | null)[] = [null, null, null, null];
  const match = findMatch(s, id);
  if (!match) return seats;
  const entrants = match.entrantIds.map((eid) => s.entrants.find((e) => e.id === eid));
  const seat = (p: Player | undefined) => (p ? { userId: p.userId, username: p.username } : null);
  if (s.config.mode === 'PARTNERS') {
    const [a, b] = entrants;
    seats[0] = seat(a?.players[0]);
    seats[2] = seat(a?.players[1]);
    seats[1] = seat(b?.players[0]);
    seats[3] = seat(b?.players[1]);
  } else {
    entrants.slice(0, 4).forEach((e, i) => (seats[i] = seat(e?.players[0])));
  }
  return seats;
}

/** The entrants of a match whose players are all seated. */
export function presentEntrants(s: TournamentState, id: string, seatedUserIds: string[]): string[] {
  const match = findMatch(s, id);
  if (!match) return [];
  return match.entrantIds.filter((eid) => {
    const e = s.entrants.find((x) => x.id === eid);
    return e !== undefined && e.players.every((p) => seatedUserIds.includes(p.userId));
  });
}

/**
 * At the seat deadline (or as players sit): 'play' = every reserved seat is taken (the game starts by itself);
 * 'play_with_bots' = SOLO, enough players to play: start with bots in the empty seats; 'walkover' = no game.
 */
export function seatingOutcome(
  s: TournamentState,
  id: string,
  seatedUserIds: string[],
): 'play' | 'play_with_bots' | 'walkover' {
  const match = findMatch(s, id);
  if (!match) return 'walkover';
  const present = presentEntrants(s, id, seatedUserIds);
  if (present.length === match.entrantIds.length && walkoverResult(s, match, present) === null) return 'play';
  if (s.config.mode === 'PARTNERS') return 'walkover';
  return present.length > advanceCount(s.config, match.round) ? 'play_with_bots' : 'walkover';
}

/**
 * The `match_played` payload from the game's result by seat: entrant → place (re-ranked among the entrants that
 * played: bots and absent players do not count) and entrant → final score.
 */
export function placesFromGame(
  s: TournamentState,
  id: string,
  placesBySeat: number[],
  scoresBySeat: number[],
): { places: Record<string, number>; scores: Record<string, number> } {
  const places: Record<string, number> = {};
  const scores: Record<string, number> = {};
  const match = findMatch(s, id);
  if (!match) return { places, scores };
  const present = match.present ?? match.entrantIds;
  match.entrantIds.forEach((eid, i) => {
    // PARTNERS: team i sits at seats i and i + 2 (its place and score are seat i's); SOLO: seat i
    const seat = i;
    const score = s.config.mode === 'PARTNERS' && scoresBySeat.length === 2 ? scoresBySeat[i] : scoresBySeat[seat];
    if (!present.includes(eid)) return; // an absent player's seat was a bot's: neither ranked nor scored
    if (typeof score === 'number') scores[eid] = score;
    if (typeof placesBySeat[seat] === 'number') places[eid] = placesBySeat[seat];
  });
  return { places: competitionRank(places), scores };
}
