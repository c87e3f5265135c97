/**
 * Fan-out of table changes to sockets (issue #10):
 * - table members: each recipient gets the command's notes built from its OWN view (`viewFor`), then an
 *   incremental `game_update` that leaves out the history (unless a hand ended) and the chat (its messages
 *   went out as `chat_message`). Joins, reconnects and HTTP still get the full view.
 * - the lobby: only sockets that `watch_lobby` get list traffic — `game_added` / `game_changed` / `game_removed`
 *   with the one item that changed (compared with what was last sent), or, for sockets that asked for it, the
 *   full `games_updated` list coalesced to at most once a second.
 */
import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import type { Seat } from '@spades/common';
import { MetricsService } from '../metrics/metrics.service';
import {
  LOBBY_LIST_FULL_ROOM as LOBBY_GAMES_FULL_ROOM,
  LOBBY_VIEW_ROOM as LOBBY_GAMES_ROOM,
} from '../realtime/realtime.service';
import { BlockedSenders, ChatBlocks, chatVisibleTo } from './chat-visibility';
import { GamesRealtime } from './ports';
import type { GameListItem } from './protocol';
import { Effects, isHuman, TableRecord } from './table';
import { listItem, notePayload, Recipient, tableView } from './wire';
import { lobbyAudience } from './table.access';
import { isPrivate } from './visibility';
import { tournamentTableScores, tournamentWatchRoom } from './tournament-tables';

/** One recipient's payload size is measured for one command in this many. */
const BYTES_SAMPLE_EVERY = 20;
const FULL_LIST_EVERY_MS = 1000;

@Injectable()
export class TableFanout implements OnModuleDestroy {
  /** Last list item JSON sent per listed table. */
  private readonly listed = new Map<string, string>();
  private fullDirty = false;
  private fullTimer: NodeJS.Timeout | null = null;
  private listProvider: () => Promise<GameListItem[]> = async () => [];
  /** Several nodes: the other nodes' tables change without this node knowing, so the full list is rebuilt each time. */
  private listEveryTime = false;
  private sample = 0;
  /** Private tables (issue #12): the users their list item was last sent to (members and invitees only). */
  private readonly privateAudience = new Map<string, Set<string>>();

  private stopping = false;

  constructor(
    private readonly realtime: GamesRealtime,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly chatBlocks?: ChatBlocks,
  ) {}

  /** Where the full lobby list comes from (the games service). */
  setListProvider(fn: () => Promise<GameListItem[]>, everyTime = false): void {
    this.listProvider = fn;
    this.listEveryTime = everyTime;
    this.fullTimer ??= setInterval(() => void this.flushFull().catch(() => undefined), FULL_LIST_EVERY_MS);
    this.fullTimer.unref();
  }

  onModuleDestroy(): void {
    this.stopping = true;
    if (this.fullTimer) clearInterval(this.fullTimer);
    this.fullTimer = null;
  }

  /**
   * Sends each note to every member with a payload built from that recipient's own view, then `game_update`. A
   * player's chat message is not sent to the members who block them (the block relations are read only for
   * commands that post one).
   */
  async table(prev: TableRecord | null, rec: TableRecord, fx: Effects): Promise<void> {
    const now = Date.now();
    const recipients = new Map<string, Recipient>();
    rec.seats.forEach((s, i) => {
      if (isHuman(s)) recipients.set(s.userId, i as Seat);
    });
    for (const s of rec.spectators) if (!recipients.has(s.userId)) recipients.set(s.userId, 'spectator');
    for (const u of fx.removedUsers) if (!recipients.has(u)) recipients.set(u, 'spectator');
    const parts = {
      history: !prev || prev.engine.history.length !== rec.engine.history.length || prev.gameNumber !== rec.gameNumber,
      chat: false,
    };
    const chatFrom = fx.notes.some((n) => n.type === 'chat_message' && n.message.userId !== 'system');
    const blocked: BlockedSenders =
      chatFrom && this.chatBlocks
        ? await this.chatBlocks.blockedBy([...recipients.keys()]).catch(() => new Map<string, Set<string>>())
        : new Map<string, Set<string>>();
    if (this.stopping) return; // shutting down while the blocks were read: the sockets are closing
    const notes = [...fx.notes, { type: 'game_update' as const }];
    const measure = this.metrics !== undefined && ++this.sample % BYTES_SAMPLE_EVERY === 0;
    let measured = false;
    // a recipient's notes and game_update leave in one write to each of its sockets
    this.realtime.toUsersTogether(recipients.keys(), () => {
      for (const [userId, viewer] of recipients) {
        const view = tableView(rec, viewer, now, parts);
        let bytes = 0;
        for (const note of notes) {
          if (note.type === 'chat_message' && !chatVisibleTo(note.message.userId, userId, blocked)) continue;
          const payload = notePayload(rec, note, view);
          if (measure && !measured) bytes += JSON.stringify(payload).length + note.type.length;
          this.realtime.emitToUser(userId, note.type, payload);
        }
        if (measure && !measured) {
          this.metrics!.tableEventBytes.observe(bytes);
          measured = true;
        }
      }
    });
    // invitations and their cancellation (issue #12): to single users outside the table's members
    for (const d of fx.direct) this.realtime.emitToUser(d.userId, d.event, d.payload);
    // a tournament table's hand ended (issue #27): its score to the tournament page's watchers
    const scores = tournamentTableScores(prev, rec);
    if (scores) this.realtime.emitToRoom(tournamentWatchRoom(scores.tournamentId), 'tournament_scores', scores);
    this.lobby(rec);
  }

  /** Lobby delta for one table (nothing when its list item did not change). */
  lobby(rec: TableRecord): void {
    if (isPrivate(rec)) return this.privateLobby(rec);
    const listed = this.listed.get(rec.id);
    if (rec.status === 'CLOSED') {
      if (listed === undefined) return;
      this.listed.delete(rec.id);
      this.realtime.emitToRoom(LOBBY_GAMES_ROOM, 'game_removed', { id: rec.id, gameId: rec.id });
      this.metrics?.lobbyEvents.inc({ event: 'game_removed' });
      this.fullDirty = true;
      return;
    }
    const item = listItem(rec);
    const json = JSON.stringify(item);
    if (listed === json) return;
    this.listed.set(rec.id, json);
    const event = listed === undefined ? 'game_added' : 'game_changed';
    this.realtime.emitToRoom(LOBBY_GAMES_ROOM, event, item);
    this.metrics?.lobbyEvents.inc({ event });
    this.fullDirty = true;
  }

  /**
   * A private table's list deltas go only to the users who may see it (`canSeeInLobby`: members and invitees),
   * on their own sockets; whoever stops being one gets `game_removed`. Never in the public lobby room or the full
   * list.
   */
  private privateLobby(rec: TableRecord): void {
    const before = this.privateAudience.get(rec.id) ?? new Set<string>();
    const removed = { id: rec.id, gameId: rec.id };
    if (rec.status === 'CLOSED') {
      for (const u of before) this.realtime.emitToUser(u, 'game_removed', removed);
      this.privateAudience.delete(rec.id);
      this.listed.delete(rec.id);
      return;
    }
    const item = listItem(rec);
    const json = JSON.stringify(item);
    const changed = this.listed.get(rec.id) !== json;
    const now = new Set(lobbyAudience(rec));
    for (const u of before) if (!now.has(u)) this.realtime.emitToUser(u, 'game_removed', removed);
    for (const u of now) {
      if (!before.has(u)) this.realtime.emitToUser(u, 'game_added', item);
      else if (changed) this.realtime.emitToUser(u, 'game_changed', item);
    }
    this.listed.set(rec.id, json);
    this.privateAudience.set(rec.id, now);
  }

  private async flushFull(): Promise<void> {
    if (!this.fullDirty && !this.listEveryTime) return;
    // nobody asked for full lists here: no list to build (the next watcher gets one on watch_lobby)
    if (this.realtime.localRoomSize(LOBBY_GAMES_FULL_ROOM) === 0) return;
    this.fullDirty = false;
    // each node sends its own watchers the list (with several nodes, every node's tables)
    this.realtime.emitToLocalRoom(LOBBY_GAMES_FULL_ROOM, 'games_updated', await this.listProvider());
    this.metrics?.lobbyEvents.inc({ event: 'games_updated' });
  }
}
