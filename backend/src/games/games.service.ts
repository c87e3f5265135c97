/**
 * Tables at runtime — the façade the gateway, the controllers and the other modules call: one method per user
 * intention. A table command runs where its table lives (table-router.ts: here or on its owner node); the tables
 * this node drives and their command loop are local-tables.service.ts; new tables open through
 * table-placement.ts; reads are lobby-queries.ts; tables changing node are table-failover.ts. This class only
 * starts and stops them in order and hands each call on.
 */
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy, Logger } from '@nestjs/common';
import type { GameInvitation } from '@spades/common';
import { ClusterPeers } from './cluster-peers';
import type { GamesConfig } from './games.config';
import { LobbyQueries } from './lobby-queries';
import { CommandOptions, LocalTables } from './local-tables.service';
import type { GameListItem, TableView } from './protocol';
import type { Effects, Participant, TableMachine, TableRecord } from './table';
import { TableChat } from './table-chat';
import type { MatchedSeat } from './table-commands';
import { TableFailover } from './table-failover';
import { TablePlacement } from './table-placement';
import { TableRouter } from './table-router';
import { TournamentTableCommands } from './tournament-table-commands';
import type {
  OpenTournamentTableInput,
  TournamentOutcome,
  TournamentResultsSink,
  TournamentTableState,
} from './tournament-tables';

export type { MatchedSeat } from './table-commands';
export type { CommandOptions } from './local-tables.service';

@Injectable()
export class GamesService implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly log = new Logger('Games');

  constructor(
    private readonly local: LocalTables,
    private readonly router: TableRouter,
    private readonly peers: ClusterPeers,
    private readonly failover: TableFailover,
    private readonly lobby: LobbyQueries,
    private readonly placement: TablePlacement,
    private readonly talk: TableChat,
    private readonly tournament: TournamentTableCommands,
  ) {}

  get cfg(): GamesConfig {
    return this.local.cfg;
  }

  get machine(): TableMachine {
    return this.local.machine;
  }

  // ------------------------------------------------------------------ boot / shutdown

  /** Alone: every open table is restored here. In a cluster: answer the others, then join (table-failover.ts). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.peers.enabled) return this.local.restoreAll();
    this.peers.serve({
      games: (command, args) => this.router.remote(command, args),
      create: (settings, creator, opts) => this.placement.createHere(settings, creator, opts),
      openTournament: (input) => this.placement.openTournamentHere(input),
      list: (userId) => this.lobby.localList(userId),
      invitations: (userId) => this.lobby.localInvitations(userId),
      seated: (userId) => this.lobby.localSeat(userId),
      adopt: (ids) => this.failover.handedOver(ids),
    });
    await this.failover.join();
  }

  /** Drain (a node of several): every table handed over to the other nodes (table-failover.ts). */
  drain(): Promise<void> {
    return this.failover.drain();
  }

  /**
   * First shutdown hook, while sockets, Redis and the database are still open: on a node of several, the tables
   * are handed over (drain); then the timers stop, before the socket.io adapter (and its Redis clients) closes.
   */
  async onModuleDestroy(): Promise<void> {
    await this.drain().catch((e) => this.log.error(`drain: ${(e as Error).message}`));
    this.onApplicationShutdown();
  }

  onApplicationShutdown(): void {
    this.local.stop();
  }

  /** Waits until every queued command has finished (tests, shutdown). */
  idle(): Promise<void> {
    return this.local.idle();
  }

  // ------------------------------------------------------------------ reads

  /** The open tables this node drives, private ones included (issue #25: the console's list; no access rule). */
  liveRecords(): TableRecord[] {
    return this.lobby.liveRecords();
  }

  /** Open WAITING tables and their host (cheap: no list items built). */
  waitingHosts(): { id: string; hostId: string | null }[] {
    return this.lobby.waitingHosts();
  }

  /** The lobby list as `userId` may see it (private tables only for their members and invitees; null: public only). */
  list(userId: string | null = null): Promise<GameListItem[]> {
    return this.lobby.list(userId);
  }

  /** The caller's own view: their seat's view when seated, else the spectator view. 404 when unknown. */
  view(gameId: string, userId: string, invite?: unknown): Promise<TableView> {
    return this.router.route('view', [gameId, userId, invite]);
  }

  /** The table's record as this node has it (driven here, else stored). 404 when unknown. */
  record(gameId: string): Promise<TableRecord> {
    return this.local.record(gameId);
  }

  /** Pending invitations of a user at open tables (every node's). */
  invitationsFor(userId: string): Promise<GameInvitation[]> {
    return this.lobby.invitationsFor(userId);
  }

  /** Whether the user sits at an open table on any node. */
  seatedAt(userId: string): Promise<string | null> {
    return this.lobby.seatedAt(userId);
  }

  // ------------------------------------------------------------------ new tables

  /** A new table, on the least-loaded node (issue #13; this one when alone or when the chosen node is gone). */
  create(settingsInput: unknown, creator: Participant, opts: { private?: boolean } = {}): Promise<TableView> {
    return this.placement.create(settingsInput, creator, opts);
  }

  /** Issue #28: a table formed by the matchmaker, seated and started (table-placement.ts). */
  startMatched(
    settings: unknown,
    seats: MatchedSeat[],
    opts: { fast?: boolean } = {},
  ): Promise<{ gameId: string; rated: boolean }> {
    return this.placement.startMatched(settings, seats, opts);
  }

  // ------------------------------------------------------------------ commands (run where the table lives)

  /** Runs a console command body in the table's queue on this node (admin/tables.commands.ts). */
  command<T>(gameId: string, opts: CommandOptions, fn: (rec: TableRecord, fx: Effects) => T | Promise<T>): Promise<T> {
    return this.local.command(gameId, opts, fn);
  }

  /** `fast`: quick play's fast pace, half of TURN_TIMEOUT_MS per turn (at least 5 s), stored with the table. */
  seatMatched(
    gameId: string,
    hostUserId: string,
    seats: MatchedSeat[],
    fast = false,
  ): Promise<{ gameId: string; rated: boolean }> {
    return this.router.route('seatMatched', [gameId, hostUserId, seats, fast]);
  }

  /**
   * Explicit join. A private table needs an invitation (pending in-app invitation, earlier admission or the
   * current invite token). Coming with an invitation and no seat asked: watch when no seat is free.
   */
  join(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView> {
    return this.router.route('join', [gameId, user, seat, invite]);
  }

  /** Socket `join_game`: a member gets the exact view again, anybody else sits or watches (table-commands.ts). */
  joinOrWatch(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView> {
    return this.router.route('joinOrWatch', [gameId, user, seat, invite]);
  }

  spectate(gameId: string, user: Participant, invite?: unknown): Promise<TableView> {
    return this.router.route('spectate', [gameId, user, invite]);
  }

  /** The invite token (host only), created on first use; `renew`: a new one (the old link stops working). */
  inviteToken(gameId: string, userId: string, renew = false): Promise<string> {
    return this.router.route('inviteToken', [gameId, userId, renew]);
  }

  /** Host only: the invite link stops working (a new one can be made later). */
  revokeInviteToken(gameId: string, userId: string): Promise<{ success: true }> {
    return this.router.route('revokeInviteToken', [gameId, userId]);
  }

  /** In-app invitation of another user (the caller checked the friendship: ParticipantsService.assertCanInvite). */
  invitePlayer(
    gameId: string,
    from: Participant,
    to: Participant,
    reserveSeat: boolean,
  ): Promise<{ ok: true; reservedSeat: number | null }> {
    return this.router.route('invitePlayer', [gameId, from, to, reserveSeat]);
  }

  declineInvitation(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.router.route('declineInvitation', [gameId, userId]);
  }

  /** Host only, WAITING (issue #24): removes a seated, watching, invited or admitted user from a private or public table. */
  removePlayer(gameId: string, hostUserId: string, userId: string): Promise<{ success: true }> {
    return this.router.route('removePlayer', [gameId, hostUserId, userId]);
  }

  leave(gameId: string, userId: string): Promise<{ success: true }> {
    return this.router.route('leave', [gameId, userId]);
  }

  inviteBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.router.route('inviteBot', [gameId, userId, seat, midgame]);
  }

  removeBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.router.route('removeBot', [gameId, userId, seat, midgame]);
  }

  start(gameId: string, userId: string): Promise<TableView> {
    return this.router.route('start', [gameId, userId]);
  }

  /** make_bid / play_card / reveal_cards; `actionId` makes a retry return the original result. */
  act(
    gameId: string,
    userId: string,
    kind: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
    actionId?: string,
  ): Promise<{ ok: true; seq: number }> {
    return this.router.route('act', [gameId, userId, kind, payload, actionId]);
  }

  /** Issue #31: claim the remaining tricks (table.claim.ts); `actionId` makes a retry return the original result. */
  claim(gameId: string, userId: string, actionId?: string): Promise<{ ok: true; tricks: number }> {
    return this.router.route('claim', [gameId, userId, actionId]);
  }

  /** Issue #31: a quick-chat preset as a table chat line (table.quickchat.ts); rate-limited by the gateway. */
  quickChat(gameId: string, from: Participant, presetId: string, actionId?: string): Promise<{ ok: true }> {
    return this.router.route('quickChat', [gameId, from, presetId, actionId]);
  }

  startNewHand(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.router.route('startNewHand', [gameId, userId]);
  }

  playAgain(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.router.route('playAgain', [gameId, userId]);
  }

  /** Game chat; `actionId` makes a retry return the original result (no second message). */
  chat(gameId: string, from: Participant, input: string, actionId?: string): Promise<{ ok: true }> {
    // the host's word filter (issue #25), on the node that received the line
    return this.router.route('chat', [gameId, from, this.talk.filtered(input), actionId]);
  }

  // ------------------------------------------------------------------ tournament tables (issue #27)

  /** The tournaments module's sink, when it cannot be injected (module order). */
  setTournamentResults(sink: TournamentResultsSink | undefined): void {
    this.local.setTournamentResults(sink);
  }

  /** A match's table, public, buy-in 0, seats reserved; idempotent on `gameId` (table-placement.ts). */
  openTournamentTable(input: OpenTournamentTableInput): Promise<TournamentTableState & { gameId: string }> {
    return this.placement.openTournamentTable(input);
  }

  /** Status, seated humans and whether the game started; null for an unknown table. */
  tournamentTableState(gameId: string): Promise<TournamentTableState | null> {
    return this.router.route('tournamentTableState', [gameId]);
  }

  /** The seat deadline passed: bots take the empty seats and the game starts (idempotent once started). */
  startTournamentTableWithBots(gameId: string): Promise<TournamentTableState> {
    return this.router.route('startTournamentTableWithBots', [gameId]);
  }

  /** The match was decided without a game (walkover): the table closes, nothing moves. Refused once started. */
  closeTournamentTable(gameId: string): Promise<TournamentTableState> {
    return this.router.route('closeTournamentTable', [gameId]);
  }

  /** Places and scores by seat of the table's finished game, from `game_records` (survives restarts); else null. */
  tournamentOutcome(gameId: string): Promise<TournamentOutcome | null> {
    return this.tournament.outcome(gameId);
  }
}
