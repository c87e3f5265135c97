/**
 * Talking at and watching a table: the game chat (the host's word filter applied on the node that received the
 * line, issue #25), quick-chat presets (issue #31, table.quickchat.ts) and spectators. Chat lines reach each
 * recipient through the fan-out, without the lines of players the recipient blocks (chat-visibility.ts).
 */
import { Injectable, Optional } from '@nestjs/common';
import { filterChatWords } from '@spades/common';
import { SettingsService } from '../settings/settings.service';
import { LocalTables, Unchanged } from './local-tables.service';
import { Participant, seatOf, TableError } from './table';
import { assertOpenAccess, TableAccess } from './table.access';
import { postQuickChat } from './table.quickchat';

@Injectable()
export class TableChat {
  constructor(
    private readonly local: LocalTables,
    private readonly access: TableAccess,
    /** Issue #25: the host's chat word filter. */
    @Optional() private readonly settings?: SettingsService,
  ) {}

  /** A chat line as it is stored: the host's word filter applied (issue #25). */
  filtered(input: string): string {
    return this.settings ? filterChatWords(input, this.settings.chatFilter()).text : input;
  }

  /** Game chat of an already filtered line; `actionId` makes a retry return the original result (no second message). */
  chat(gameId: string, from: Participant, text: string, actionId?: string): Promise<{ ok: true }> {
    return this.local.command(
      gameId,
      { type: 'chat', actor: from.userId, actionId, payload: { message: text } },
      (rec, fx) => {
        const member = seatOf(rec, from.userId) !== null || rec.spectators.some((s) => s.userId === from.userId);
        if (!member) throw new TableError('Join or watch the game to chat', 403);
        this.local.machine.postChat(rec, fx, { userId: from.userId, userName: from.username }, text);
        return { ok: true as const };
      },
    );
  }

  /** Issue #31: a quick-chat preset as a table chat line (table.quickchat.ts); rate-limited by the gateway. */
  quickChat(gameId: string, from: Participant, presetId: string, actionId?: string): Promise<{ ok: true }> {
    return this.local.command(
      gameId,
      { type: 'chat', actor: from.userId, actionId, payload: { quick: presetId } },
      (rec, fx) => {
        postQuickChat(this.local.machine, rec, fx, from, presetId);
        return { ok: true as const };
      },
    );
  }

  /** Watches the table (the caller then gets its view); already watching (a reconnect) stores and sends nothing. */
  async spectate(gameId: string, user: Participant, invite?: unknown): Promise<void> {
    const viewer = await this.access.viewerFor(await this.local.record(gameId), user.userId, invite);
    await this.local.command(gameId, { type: 'spectate', actor: user.userId }, (rec, fx) => {
      assertOpenAccess(rec, viewer);
      if (!this.local.machine.spectate(rec, fx, user)) throw new Unchanged();
    });
  }
}
