/**
 * Issue #27: the `TOURNAMENT_RESULTS` sink GamesService calls after a tournament table's game is stored as finished.
 * A plain hub without dependencies (GamesService needs it, the driver that listens needs GamesService): the driver
 * registers its listener; the call is a hint only (the driver also polls `tournamentOutcome`).
 */
import { Injectable, Logger } from '@nestjs/common';
import type { TournamentResultsSink } from '../games/tournament-tables';

type Listener = (e: { tournamentId: string; matchId: string; gameId: string }) => void;

@Injectable()
export class TournamentResultsHub implements TournamentResultsSink {
  private readonly log = new Logger('TournamentResults');
  private readonly listeners = new Set<Listener>();

  listen(fn: Listener): void {
    this.listeners.add(fn);
  }

  gameFinished(e: { tournamentId: string; matchId: string; gameId: string }): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.log.warn(`gameFinished: ${(err as Error).message}`);
      }
    }
  }
}
