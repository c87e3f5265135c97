/**
 * What the lobby and the other modules read about tables (nothing here changes a table): the lobby list (every
 * node's part in a cluster, each private table only for its members and invitees), a caller's own view of a table,
 * pending invitations, where a user is seated, the live records for the console and the abandoned-table sweep.
 */
import { Injectable, Optional } from '@nestjs/common';
import type { GameInvitation } from '@spades/common';
import { ChatBlocks } from './chat-visibility';
import { ClusterPeers } from './cluster-peers';
import { LocalTables } from './local-tables.service';
import type { GameListItem, TableView } from './protocol';
import { hostId, invitationPayload, seatOf, TableRecord } from './table';
import { canSeeInLobby, TableAccess } from './table.access';
import { TableFanout } from './table.fanout';
import { listItem, tableView } from './wire';

@Injectable()
export class LobbyQueries {
  constructor(
    private readonly local: LocalTables,
    private readonly peers: ClusterPeers,
    private readonly access: TableAccess,
    fanout: TableFanout,
    @Optional() private readonly chatBlocks?: ChatBlocks,
  ) {
    fanout.setListProvider(() => this.list(), peers.enabled);
  }

  /** The open tables this node drives, private ones included (issue #25: the console's list; no access rule). */
  liveRecords(): TableRecord[] {
    return [...this.local.tables.all()].map((a) => a.rec).filter((r) => r.status !== 'CLOSED');
  }

  /** Open WAITING tables and their host (cheap: no list items built). */
  waitingHosts(): { id: string; hostId: string | null }[] {
    const out: { id: string; hostId: string | null }[] = [];
    for (const a of this.local.tables.all())
      // a tournament table waits for its players until the tournament's seat deadline (issue #27), not its host
      if (a.rec.status === 'WAITING' && !a.rec.tournament) out.push({ id: a.rec.id, hostId: hostId(a.rec) });
    return out;
  }

  /** The lobby list as `userId` may see it (private tables only for their members and invitees; null: public only). */
  async list(userId: string | null = null): Promise<GameListItem[]> {
    if (!this.peers.enabled) return this.localList(userId);
    const parts = [this.localList(userId), ...(await this.peers.others('list', [userId]))];
    const seen = new Set<string>();
    return parts
      .flat()
      .filter((g) => !seen.has(g.id) && !!seen.add(g.id))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  /** This node's tables in the lobby list. */
  localList(userId: string | null = null): GameListItem[] {
    return [...this.local.tables.all()]
      .map((a) => a.rec)
      .filter((r) => r.status !== 'CLOSED' && canSeeInLobby(r, userId))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(listItem);
  }

  /** The caller's own view: their seat's view when seated, else the spectator view. 404 when unknown. */
  async view(gameId: string, userId: string, invite?: unknown): Promise<TableView> {
    const rec = await this.local.record(gameId);
    await this.access.assertTable(rec, { userId, invite }); // every status: a closed private table only for its players
    const seat = seatOf(rec, userId);
    const view = tableView(rec, seat ?? 'spectator', Date.now());
    // blocks (issue 15): the caller never sees the chat of players they block
    if (this.chatBlocks && view.chat) view.chat = await this.chatBlocks.visibleTo(view.chat, userId);
    return view;
  }

  /** Pending invitations of a user at open tables (every node's). */
  async invitationsFor(userId: string): Promise<GameInvitation[]> {
    const mine = this.localInvitations(userId);
    if (!this.peers.enabled) return mine;
    return [mine, ...(await this.peers.others('invitations', [userId]))]
      .flat()
      .sort((x, y) => y.createdAt - x.createdAt);
  }

  /** This node's part of `invitationsFor`. */
  localInvitations(userId: string): GameInvitation[] {
    const out: GameInvitation[] = [];
    for (const a of this.local.tables.all()) {
      const r = a.rec;
      if (r.status === 'CLOSED') continue;
      const inv = (r.invitations ?? []).find((i) => i.userId === userId);
      if (inv) out.push(invitationPayload(r, inv));
    }
    return out.sort((x, y) => y.createdAt - x.createdAt);
  }

  /** The table where the user holds a seat on this node (the game not over), if any. */
  localSeat(userId: string): string | null {
    return this.local.tables.tableOfSeatedUser(userId)?.id ?? null;
  }

  /** Whether the user sits at an open table on any node. */
  async seatedAt(userId: string): Promise<string | null> {
    const here = this.localSeat(userId);
    if (here || !this.peers.enabled) return here;
    for (const id of await this.peers.others('seated', [userId])) if (id) return id;
    return null;
  }
}
