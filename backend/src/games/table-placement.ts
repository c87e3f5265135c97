/**
 * New tables: a player's table, a quick-play table (issue #28) and a tournament match's table (issue #27). Each
 * opens on the least-loaded node of a cluster (issue #13; this one when alone or when the chosen node is gone) and
 * is stored before it is driven and shown.
 */
import { Injectable, Optional } from '@nestjs/common';
import { BUY_IN_MIN, presetNotOfferedMessage, tablePresetOf, validateSettings } from '@spades/common';
import { randomUUID } from 'node:crypto';
import { SettingsService } from '../settings/settings.service';
import { ClusterPeers } from './cluster-peers';
import { LobbyQueries } from './lobby-queries';
import { LocalTables } from './local-tables.service';
import { GamesLedger } from './ports';
import type { TableView } from './protocol';
import { newBot, newEffects, newTable, Participant, TableError } from './table';
import type { MatchedSeat } from './table-commands';
import { TableRouter } from './table-router';
import { TableStore } from './table.store';
import { tableView } from './wire';
import {
  checkOpenInput,
  OpenTournamentTableInput,
  tournamentTableState,
  TournamentTableState,
} from './tournament-tables';

@Injectable()
export class TablePlacement {
  constructor(
    private readonly local: LocalTables,
    private readonly peers: ClusterPeers,
    private readonly router: TableRouter,
    private readonly lobby: LobbyQueries,
    private readonly store: TableStore,
    private readonly ledger: GamesLedger,
    /** Issue #25: the host's table presets. */
    @Optional() private readonly settings?: SettingsService,
  ) {}

  /** A new table, on the least-loaded node. */
  create(settingsInput: unknown, creator: Participant, opts: { private?: boolean } = {}): Promise<TableView> {
    return this.peers.place(
      'create',
      [settingsInput, creator, opts],
      () => this.createHere(settingsInput, creator, opts),
      () => {
        if (this.peers.nodes!.isDraining) throw new TableError('This server is restarting: try again', 503);
      },
    );
  }

  /** A new table on this node (bus `create`). */
  async createHere(settingsInput: unknown, creator: Participant, opts: { private?: boolean }): Promise<TableView> {
    const v = validateSettings(settingsInput);
    if (!v.ok) throw new TableError(v.message);
    const preset = tablePresetOf(v.settings);
    if (this.settings && !this.settings.get().tablePresets.includes(preset))
      throw new TableError(presetNotOfferedMessage(preset));
    await this.ledger.assertCanAfford(creator.userId, v.settings.buyIn);
    if (await this.lobby.seatedAt(creator.userId)) throw new TableError('You are already seated at another table');
    const id = randomUUID();
    const rec = newTable(id, v.settings, creator, Date.now(), opts);
    const fx = newEffects('create');
    this.local.machine.announce(rec, fx, creator);
    fx.lobby = true;
    await this.store.insertNew(rec, creator.userId, { settings: v.settings }, this.peers.ownerId);
    // a concurrent create by the same user may have won the race meanwhile: the table exists, it is theirs
    await this.local.opened(rec, fx);
    return tableView(rec, 0, Date.now());
  }

  /**
   * Issue #28 (quick play, "Play bots now"): a table formed by the matchmaker. Created private (so nobody else can
   * take a seat meanwhile) through the ordinary creation path with `seats[0]` as host, then one routed command
   * (`seatMatched`) seats the others through the ordinary seating checks, opens the table to the lobby and starts
   * it: rated when four humans sit (buy-ins to escrow in that command's transaction, as for a host's start). If the
   * seating is refused the host leaves, which closes the table, and the error is rethrown.
   */
  async startMatched(
    settings: unknown,
    seats: MatchedSeat[],
    opts: { fast?: boolean } = {},
  ): Promise<{ gameId: string; rated: boolean }> {
    const host = seats[0];
    if (!host || host.kind !== 'human' || seats.length !== 4)
      throw new TableError('A matched table needs a human host in seat 1');
    const view = await this.create(settings, host.user, { private: true });
    try {
      return await this.router.route('seatMatched', [view.id, host.user.userId, seats, opts.fast === true]);
    } catch (e) {
      await this.router.route('leave', [view.id, host.user.userId]).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Opens a tournament match's table (tournament-tables.ts): public, buy-in 0, seats reserved for `seats`, bots in
   * the null seats. Idempotent on `gameId` (a second call answers the existing table's state, wherever it lives).
   */
  async openTournamentTable(input: OpenTournamentTableInput): Promise<TournamentTableState & { gameId: string }> {
    checkOpenInput(input);
    const existing = await this.router.route('tournamentTableState', [input.gameId]);
    if (existing) return { gameId: input.gameId, ...existing };
    return this.peers.place('openTournament', [input], () => this.openTournamentHere(input));
  }

  /** A tournament match's table on this node (bus `openTournament`). */
  async openTournamentHere(input: OpenTournamentTableInput): Promise<TournamentTableState & { gameId: string }> {
    checkOpenInput(input);
    const id = input.gameId;
    const here = this.local.tables.get(id);
    if (here) return { gameId: id, ...tournamentTableState(here.rec) };
    // validated as a table's settings (a tournament table's buy-in is 0, below any table's minimum)
    const v = validateSettings({ ...input.settings, buyIn: BUY_IN_MIN });
    if (!v.ok) throw new TableError(v.message);
    const settings = { ...v.settings, buyIn: 0 };
    const rec = newTable(id, settings, null, Date.now());
    rec.tournament = {
      tournamentId: input.link.tournamentId,
      matchId: input.link.matchId,
      name: input.name,
      reserved: input.seats.map((p) => p?.userId ?? null),
    };
    const fx = newEffects('create');
    input.seats.forEach((p, i) => {
      if (p === null) rec.seats[i] = newBot(i);
    });
    this.local.machine.postSystem(
      rec,
      fx,
      `${input.name}: match ${input.link.matchId}. The game starts when every player is seated.`,
    );
    fx.lobby = true;
    try {
      await this.store.insertNew(
        rec,
        `tournament:${input.link.tournamentId}`.slice(0, 80),
        { tournament: rec.tournament, settings },
        this.peers.ownerId,
      );
    } catch (e) {
      // opened meanwhile (a concurrent call, another node): that table is the one
      if (
        (e as { driverError?: { code?: string }; code?: string }).driverError?.code !== '23505' &&
        (e as { code?: string }).code !== '23505'
      )
        throw e;
      const state = await this.router.route('tournamentTableState', [id]);
      if (!state) throw e;
      return { gameId: id, ...state };
    }
    await this.local.opened(rec, fx);
    return { gameId: id, ...tournamentTableState(rec) };
  }
}
