/**
 * Where a table command runs (issue #13): here when this node drives the table (or owns it in the database and
 * loads it now, or takes it over from a dead owner), else on the owner through the cluster bus; the caller gets the
 * owner's answer or error. A table that moves while the command waits is looked up again. Alone, every command
 * runs here. The commands are one typed map (`RoutedCommands`): the same entry runs a command here and answers a
 * forwarded one.
 */
import { Injectable, Optional } from '@nestjs/common';
import { isUuid } from '@spades/common';
import { NodeUnreachable, RemoteError } from '../cluster/cluster.bus';
import { MetricsService } from '../metrics/metrics.service';
import { ClusterPeers } from './cluster-peers';
import { LobbyQueries } from './lobby-queries';
import { LocalTables, Moved } from './local-tables.service';
import type { TableView } from './protocol';
import { Participant, TableError } from './table';
import { TableChat } from './table-chat';
import { MatchedSeat, TableCommands } from './table-commands';
import { TableFailover } from './table-failover';
import { TableInvitations } from './table-invitations';
import { FencedError } from './table.ownership';
import { TournamentTableCommands } from './tournament-table-commands';
import type { TournamentTableState } from './tournament-tables';

/** Table commands another node may forward to the table's owner: their arguments (the table's id first) and answers. */
export interface RoutedCommands {
  view(gameId: string, userId: string, invite?: unknown): Promise<TableView>;
  join(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView>;
  joinOrWatch(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView>;
  spectate(gameId: string, user: Participant, invite?: unknown): Promise<TableView>;
  inviteToken(gameId: string, userId: string, renew: boolean): Promise<string>;
  revokeInviteToken(gameId: string, userId: string): Promise<{ success: true }>;
  invitePlayer(
    gameId: string,
    from: Participant,
    to: Participant,
    reserveSeat: boolean,
  ): Promise<{ ok: true; reservedSeat: number | null }>;
  declineInvitation(gameId: string, userId: string): Promise<{ ok: true }>;
  removePlayer(gameId: string, hostUserId: string, userId: string): Promise<{ success: true }>;
  leave(gameId: string, userId: string): Promise<{ success: true }>;
  inviteBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView>;
  removeBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView>;
  start(gameId: string, userId: string): Promise<TableView>;
  act(
    gameId: string,
    userId: string,
    kind: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
    actionId?: string,
  ): Promise<{ ok: true; seq: number }>;
  startNewHand(gameId: string, userId: string): Promise<{ ok: true }>;
  playAgain(gameId: string, userId: string): Promise<{ ok: true }>;
  /** `text`: already through the word filter of the node that received it. */
  chat(gameId: string, from: Participant, text: string, actionId?: string): Promise<{ ok: true }>;
  claim(gameId: string, userId: string, actionId?: string): Promise<{ ok: true; tricks: number }>;
  quickChat(gameId: string, from: Participant, presetId: string, actionId?: string): Promise<{ ok: true }>;
  seatMatched(
    gameId: string,
    hostUserId: string,
    seats: MatchedSeat[],
    fast: boolean,
  ): Promise<{ gameId: string; rated: boolean }>;
  tournamentTableState(gameId: string): Promise<TournamentTableState | null>;
  startTournamentTableWithBots(gameId: string): Promise<TournamentTableState>;
  closeTournamentTable(gameId: string): Promise<TournamentTableState>;
}
export type RoutedCommand = keyof RoutedCommands;
type Args<K extends RoutedCommand> = Parameters<RoutedCommands[K]>;
type Answer<K extends RoutedCommand> = Awaited<ReturnType<RoutedCommands[K]>>;
type Handlers = { [K in RoutedCommand]: (...args: Args<K>) => Promise<Answer<K>> };

/** Error code of a forwarded command that reached a node which does not own the table (the caller looks again). */
const NOT_OWNER = 'NOT_OWNER';
/** Attempts of a command whose table moved (handed over, taken over) before it is refused with a 503. */
const MOVED_ATTEMPTS = 4;

@Injectable()
export class TableRouter {
  /** Each command as this node runs it for a table it drives (a view it answers is routed: the table may move). */
  private readonly here: Handlers;

  constructor(
    private readonly local: LocalTables,
    private readonly peers: ClusterPeers,
    private readonly failover: TableFailover,
    lobby: LobbyQueries,
    commands: TableCommands,
    invitations: TableInvitations,
    talk: TableChat,
    tournament: TournamentTableCommands,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    const view = (gameId: string, userId: string) => this.route('view', [gameId, userId]);
    this.here = {
      view: (gameId, userId, invite) => lobby.view(gameId, userId, invite),
      join: (gameId, user, seat, invite) =>
        commands.join(gameId, user, seat, invite).then(() => view(gameId, user.userId)),
      joinOrWatch: (gameId, user, seat, invite) =>
        commands.joinOrWatch(gameId, user, seat, invite).then(() => view(gameId, user.userId)),
      spectate: (gameId, user, invite) => talk.spectate(gameId, user, invite).then(() => view(gameId, user.userId)),
      inviteToken: (gameId, userId, renew) => invitations.inviteToken(gameId, userId, renew),
      revokeInviteToken: (gameId, userId) => invitations.revokeInviteToken(gameId, userId),
      invitePlayer: (gameId, from, to, reserveSeat) => invitations.invitePlayer(gameId, from, to, reserveSeat),
      declineInvitation: (gameId, userId) => invitations.declineInvitation(gameId, userId),
      removePlayer: (gameId, hostUserId, userId) => commands.removePlayer(gameId, hostUserId, userId),
      leave: (gameId, userId) => commands.leave(gameId, userId),
      inviteBot: (gameId, userId, seat, midgame) =>
        commands.inviteBot(gameId, userId, seat, midgame).then(() => view(gameId, userId)),
      removeBot: (gameId, userId, seat, midgame) =>
        commands.removeBot(gameId, userId, seat, midgame).then(() => view(gameId, userId)),
      start: (gameId, userId) => commands.start(gameId, userId).then(() => view(gameId, userId)),
      act: (gameId, userId, kind, payload, actionId) => commands.act(gameId, userId, kind, payload, actionId),
      startNewHand: (gameId, userId) => commands.startNewHand(gameId, userId),
      playAgain: (gameId, userId) => commands.playAgain(gameId, userId),
      chat: (gameId, from, text, actionId) => talk.chat(gameId, from, text, actionId),
      claim: (gameId, userId, actionId) => commands.claim(gameId, userId, actionId),
      quickChat: (gameId, from, presetId, actionId) => talk.quickChat(gameId, from, presetId, actionId),
      seatMatched: (gameId, hostUserId, seats, fast) => commands.seatMatched(gameId, hostUserId, seats, fast),
      tournamentTableState: (gameId) => tournament.state(gameId),
      startTournamentTableWithBots: (gameId) => tournament.startWithBots(gameId),
      closeTournamentTable: (gameId) => tournament.close(gameId),
    };
  }

  /** Runs a table command where the table lives (`args[0]`: the table's id). */
  route<K extends RoutedCommand>(name: K, args: Args<K>): Promise<Answer<K>> {
    return this.routed(name, args, 0, Date.now());
  }

  /** A command forwarded by another node (bus `games`): run it if this node owns the table (loading it if needed). */
  async remote(name: string, raw: unknown): Promise<unknown> {
    if (!this.isRouted(name) || !Array.isArray(raw)) throw new TableError('Unknown command', 400);
    // JSON turns undefined arguments into null: no command takes null where undefined means "not given"
    const args = raw.map((v: unknown) => (v === null ? undefined : v)) as Args<RoutedCommand>;
    const gameId = args[0];
    if (!this.local.tables.get(gameId)) {
      // a node going away loads no table and may already have closed its database: whatever it drove was handed
      // over, so the caller looks the owner up again (asking the database here could fail the player's command)
      const goingAway = this.local.isStopping || this.peers.nodes!.isDraining;
      const owner = goingAway ? null : await this.peers.ownership!.ownerOf(gameId);
      if (owner?.node !== this.peers.nodes!.nodeId)
        throw new RemoteError('Not the owner of this table', 409, NOT_OWNER);
      await this.failover.adopt([gameId]);
    }
    return this.route(name, args);
  }

  private isRouted(name: string): name is RoutedCommand {
    return Object.hasOwn(this.here, name);
  }

  private runHere<K extends RoutedCommand>(name: K, args: Args<K>): Promise<Answer<K>> {
    const run: (...a: Args<K>) => Promise<Answer<K>> = this.here[name];
    return run(...args);
  }

  private async routed<K extends RoutedCommand>(
    name: K,
    args: Args<K>,
    attempt: number,
    since: number,
  ): Promise<Answer<K>> {
    const gameId: string = args[0];
    if (!this.peers.enabled || this.local.tables.get(gameId) || !isUuid(gameId))
      return this.retryMoved(name, args, attempt, since);
    const node = await this.whereIs(gameId);
    if (node === null) return this.retryMoved(name, args, attempt, since);
    try {
      const answer = await this.peers.call(node, 'games', [name, args]);
      this.metrics?.forwarded.inc({ outcome: 'ok' });
      return answer as Answer<K>;
    } catch (e) {
      const gone = e instanceof NodeUnreachable;
      const moved = gone || (e instanceof RemoteError && e.code === NOT_OWNER);
      this.metrics?.forwarded.inc({ outcome: gone ? 'unreachable' : moved ? 'moved' : 'refused' });
      if (!moved) throw e;
      this.peers.owners.delete(gameId);
      // an owner that stopped answering is waited for until its lease has surely run out (then this node or
      // another takes the table over and the command runs there); a table that moved is looked up again
      if (gone) {
        if (Date.now() - since > this.peers.nodes!.leaseMs + 3000)
          throw new TableError('The table is moving to another server: try again', 503);
        await delay(250);
        return this.routed(name, args, attempt, since);
      }
      if (attempt >= MOVED_ATTEMPTS) throw new TableError('The table is moving to another server: try again', 503);
      return this.routed(name, args, attempt + 1, since);
    }
  }

  private async retryMoved<K extends RoutedCommand>(
    name: K,
    args: Args<K>,
    attempt: number,
    since: number,
  ): Promise<Answer<K>> {
    try {
      return await this.runHere(name, args);
    } catch (e) {
      if (!(e instanceof Moved || e instanceof FencedError) || attempt >= MOVED_ATTEMPTS) throw e;
      return this.routed(name, args, attempt + 1, since);
    }
  }

  /**
   * The node that drives a table of another node; null when this node should run the command itself (it drives
   * or now owns the table, the table is unknown or closed: the local path answers 404 / closed).
   */
  private async whereIs(gameId: string): Promise<string | null> {
    const nodes = this.peers.nodes!;
    const ownership = this.peers.ownership!;
    const cached = this.peers.owners.get(gameId);
    if (cached && nodes.isLive(cached)) return cached;
    for (let i = 0; i < 3; i++) {
      const owner = await ownership.ownerOf(gameId);
      if (!owner) return null;
      const me = nodes.nodeId;
      if (owner.node === me) {
        await this.failover.adopt([gameId]);
        return null;
      }
      if (owner.node && nodes.isLive(owner.node)) {
        this.peers.owners.set(gameId, owner.node);
        return owner.node;
      }
      // the owner stopped (or there is none): take the table over now, unless it is closed
      if (nodes.isDraining) return null;
      const epoch = await ownership.claim(gameId, me, owner);
      if (epoch !== null) {
        await this.failover.adopt([gameId]);
        return null;
      }
      const again = await ownership.ownerOf(gameId);
      if (!again || again.epoch === owner.epoch) return null; // not open: closed or settled
    }
    return null;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
