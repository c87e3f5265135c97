/**
 * Issue #27: helpers to build and drive tournaments in tests (common's specs, backend simulations). Pure, seeded:
 * `pick` decides who shows up and how games end.
 */
import type { GameMode } from '../rules/settings';
import { matchSeats, placesFromGame, presentEntrants, seatingOutcome } from './bracket';
import { applyTournament, createTournament, matchesToOpen, validateTournamentInput } from './engine';
import type { TournamentConfig, TournamentEvent, TournamentSize, TournamentState } from './types';

export function testConfig(
  mode: GameMode,
  size: TournamentSize,
  extra: { buyIn?: number; kind?: 'sit_and_go' | 'scheduled'; minEntrants?: number; prizeSplit?: number[] } = {},
): TournamentConfig {
  const kind = extra.kind ?? 'sit_and_go';
  const r = validateTournamentInput(
    {
      name: 'Test cup',
      mode,
      size,
      buyIn: extra.buyIn ?? 100_000,
      prizeSplit: extra.prizeSplit,
      startsAt: kind === 'scheduled' ? 10_000 : null,
      minEntrants: extra.minEntrants,
    },
    { kind, now: 0, createdBy: 'admin' },
  );
  if (!r.ok) throw new Error(r.message);
  return r.config;
}

export function testPlayer(i: number, rating = 1500 - i * 10) {
  return { userId: `u${i}`, username: `User${i}`, rating };
}

/** Applies an event; throws on refusal (tests). Returns the new state and appends the event to `log`. */
export function step(s: TournamentState, e: TournamentEvent, log?: TournamentEvent[]): TournamentState {
  const r = applyTournament(s, e);
  if (!r.ok) throw new Error(`${e.type} refused: ${r.error} ${r.message}`);
  log?.push(e);
  return r.state;
}

export function newTournament(config: TournamentConfig, id = 't1'): TournamentState {
  return createTournament(id, config, 0);
}

/** Registers `n` single players u1..un (ratings 1490, 1480, …) and starts. */
export function startedWith(config: TournamentConfig, n: number, log?: TournamentEvent[]): TournamentState {
  let s = newTournament(config);
  for (let i = 1; i <= n; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] }, log);
  return step(s, { type: 'started', at: 100 }, log);
}

export interface Driver {
  /** Whether a user takes their seat in a match. */
  seated(matchId: string, userId: string): boolean;
  /** Places by seat (1..4) for a game: default seat order. */
  places(matchId: string, seats: number): number[];
}

export const everyoneWinsInSeatOrder: Driver = {
  seated: () => true,
  places: () => [1, 2, 3, 4],
};

/** Drives a RUNNING tournament to its end the way the backend's driver does. Returns the final state. */
export function driveToEnd(s: TournamentState, d: Driver, log?: TournamentEvent[], maxSteps = 200): TournamentState {
  let at = 1_000;
  for (let i = 0; i < maxSteps && s.status === 'RUNNING'; i++) {
    const open = matchesToOpen(s);
    if (open.length === 0) throw new Error('RUNNING without a match to open');
    for (const m of open) {
      at += 1;
      s = step(s, { type: 'match_opened', at, matchId: m.id, gameId: `g-${m.id}`, seatDeadline: at + 120_000 }, log);
    }
    for (const m of open) {
      at += 1;
      const seated = matchSeats(s, m.id)
        .filter((p): p is { userId: string; username: string } => p !== null && d.seated(m.id, p.userId))
        .map((p) => p.userId);
      const outcome = seatingOutcome(s, m.id, seated);
      const present = presentEntrants(s, m.id, seated);
      if (outcome === 'walkover') {
        s = step(s, { type: 'match_walkover', at, matchId: m.id, present }, log);
        continue;
      }
      s = step(
        s,
        outcome === 'play'
          ? { type: 'match_started', at, matchId: m.id }
          : { type: 'match_started', at, matchId: m.id, present },
        log,
      );
      const placesBySeat = d.places(m.id, 4);
      const scoresBySeat = placesBySeat.map((p) => 500 - p * 100);
      const g = placesFromGame(s, m.id, placesBySeat, scoresBySeat);
      at += 1;
      s = step(s, { type: 'match_played', at, matchId: m.id, places: g.places, scores: g.scores }, log);
    }
  }
  return s;
}
