/**
 * Issue #27: the commands the tournament driver runs at a match's table, on the node that drives it (the rules are
 * in tournament-tables.ts, the opening of a table in table-placement.ts): its state, the start with bots at the seat
 * deadline, the close of a walkover, and the outcome of its finished game.
 */
import { Injectable, NotFoundException } from '@nestjs/common';
import { isUuid } from '@spades/common';
import { LocalTables, Unchanged } from './local-tables.service';
import { isHuman, TableError } from './table';
import { TableStore } from './table.store';
import {
  readTournamentOutcome,
  TOURNAMENT_TABLE_ERRORS,
  tournamentTableState,
  TournamentOutcome,
  TournamentTableState,
} from './tournament-tables';

@Injectable()
export class TournamentTableCommands {
  constructor(
    private readonly local: LocalTables,
    private readonly store: TableStore,
  ) {}

  /** Status, seated humans and whether the game started; null for an unknown table. */
  async state(gameId: string): Promise<TournamentTableState | null> {
    try {
      return tournamentTableState(await this.local.record(gameId));
    } catch (e) {
      if (e instanceof NotFoundException) return null;
      throw e;
    }
  }

  /** The seat deadline passed: bots take the empty seats and the game starts (idempotent once started). */
  async startWithBots(gameId: string): Promise<TournamentTableState> {
    const rec = await this.local.record(gameId);
    if (!rec.tournament) throw new TableError('Not a tournament table');
    if (rec.status !== 'WAITING') {
      if (rec.status === 'CLOSED' && !tournamentTableState(rec).started)
        throw new TableError(TOURNAMENT_TABLE_ERRORS.CLOSED, 409);
      return tournamentTableState(rec);
    }
    await this.local.command(gameId, { type: 'tournament_start' }, (draft, fx) => {
      if (!this.local.machine.startWithBots(draft, fx)) throw new Unchanged();
    });
    return tournamentTableState(await this.local.record(gameId));
  }

  /** The match was decided without a game (walkover): the table closes, nothing moves. Refused once started. */
  async close(gameId: string): Promise<TournamentTableState> {
    const rec = await this.local.record(gameId);
    if (!rec.tournament) throw new TableError('Not a tournament table');
    if (tournamentTableState(rec).started) throw new TableError(TOURNAMENT_TABLE_ERRORS.ALREADY_STARTED, 409);
    if (rec.status === 'CLOSED') return tournamentTableState(rec);
    await this.local.command(gameId, { type: 'tournament_close' }, (draft, fx) => {
      if (draft.status === 'CLOSED') throw new Unchanged();
      if (draft.status !== 'WAITING') throw new TableError(TOURNAMENT_TABLE_ERRORS.ALREADY_STARTED, 409);
      for (const s of draft.seats) if (isHuman(s)) fx.removedUsers.push(s.userId);
      this.local.machine.close(draft, fx, 'The tournament match was decided without a game');
    });
    return tournamentTableState(await this.local.record(gameId));
  }

  /** Places and scores by seat of the table's finished game, from `game_records` (survives restarts); else null. */
  outcome(gameId: string): Promise<TournamentOutcome | null> {
    if (!isUuid(gameId)) return Promise.resolve(null);
    return readTournamentOutcome((sql, params) => this.store.read(sql, params), gameId);
  }
}
