import { BadRequestException, Injectable } from '@nestjs/common';
import type { GameChatMessage, ReportChatLine, ReportContext, ReportContextInput } from '@spades/common';
import { REPORT_CHAT_AFTER, REPORT_CHAT_BEFORE } from '@spades/common';
import { DataSource } from 'typeorm';
import { GamesService } from '../games/games.service';
import { REPORT_MESSAGES as M } from './reports.messages';

/** Table chat lines captured with a report made from a seat (the table's last lines). */
export const REPORT_GAME_CHAT_LINES = 20;
/** Lobby lines of the muted player captured with an auto-mute report. */
export const AUTO_MUTE_CHAT_LINES = 20;

interface LobbyRow {
  id: string;
  user_id: string;
  username: string;
  message: string;
  created_at: Date;
}

/**
 * Captures a report's context on the SERVER (issue #25): the lobby chat lines around the reported one (from the
 * database), the table chat lines around it or the table itself (through GamesService.view as the reporter: the
 * reporter's own access rules apply, on whichever node drives the table). Nothing the reporter sends but ids is
 * kept. A chat line must exist and have been written by the reported player.
 */
@Injectable()
export class ReportContextCapture {
  constructor(
    private readonly ds: DataSource,
    private readonly games: GamesService,
  ) {}

  /** The stored context and its dedupe key (`context_ref`). */
  async capture(
    reporterId: string,
    targetId: string,
    input: ReportContextInput,
  ): Promise<{ context: ReportContext; ref: string | null }> {
    switch (input.kind) {
      case 'profile':
        return { context: { kind: 'profile' }, ref: null };
      case 'lobby_chat':
        return {
          context: {
            kind: 'lobby_chat',
            messageId: input.messageId,
            lines: await this.lobbyLines(targetId, input.messageId),
          },
          ref: `lobby_chat:${input.messageId}`,
        };
      case 'table_chat': {
        const chat = await this.tableChat(input.gameId, reporterId);
        const at = chat.findIndex((m) => m.id === input.messageId);
        if (at < 0) throw new BadRequestException(M.lineNotFound);
        if (chat[at].userId !== targetId) throw new BadRequestException(M.lineNotTheirs);
        const lines = chat
          .slice(Math.max(0, at - REPORT_CHAT_BEFORE), at + REPORT_CHAT_AFTER + 1)
          .map((m) => tableLine(m, m.id === input.messageId));
        return {
          context: { kind: 'table_chat', gameId: input.gameId, messageId: input.messageId, lines },
          ref: `table_chat:${input.gameId}:${input.messageId}`,
        };
      }
      case 'game': {
        const view = await this.games.view(input.gameId, reporterId);
        const chat = await this.tableChat(input.gameId, reporterId, true);
        const seats = view.players.map((p, seat) => ({
          seat,
          userId: p && p.type === 'human' ? p.id : null,
          username: p ? p.username : null,
          bot: p?.type === 'bot',
        }));
        const targetPresent =
          seats.some((s) => s.userId === targetId) ||
          view.spectators.some((s) => s.id === targetId) ||
          chat.some((m) => m.userId === targetId);
        return {
          context: {
            kind: 'game',
            gameId: input.gameId,
            status: view.status,
            private: view.private === true,
            targetPresent,
            seats,
            chat: chat.slice(-REPORT_GAME_CHAT_LINES).map((m) => tableLine(m, m.userId === targetId)),
          },
          ref: `game:${input.gameId}`,
        };
      }
    }
  }

  /**
   * The table's whole chat (capped like the table's own history) once the reporter passed the table's access rules
   * (GamesService.view: on whichever node drives it): not filtered by the reporter's blocks and mutes, so a line
   * reported and then muted, and the lines around it, are all there for the moderator. On a node that does not
   * drive the table, the record comes from the database (every chat line is committed before it is answered).
   */
  private async tableChat(gameId: string, reporterId: string, checked = false): Promise<GameChatMessage[]> {
    if (!checked) await this.games.view(gameId, reporterId);
    return (await this.games.record(gameId)).chat;
  }

  /** The reported lobby line with REPORT_CHAT_BEFORE lines before it and REPORT_CHAT_AFTER after, oldest first. */
  private async lobbyLines(targetId: string, messageId: string): Promise<ReportChatLine[]> {
    const [line]: LobbyRow[] = await this.ds.query(
      `SELECT id, user_id, username, message, created_at FROM lobby_chat_messages WHERE id = $1`,
      [messageId],
    );
    if (!line) throw new BadRequestException(M.lineNotFound);
    if (line.user_id !== targetId) throw new BadRequestException(M.lineNotTheirs);
    // ordered in SQL: created_at has microseconds, a JS Date only milliseconds
    const around: LobbyRow[] = await this.ds.query(
      `WITH r AS (SELECT created_at, id FROM lobby_chat_messages WHERE id = $1),
       older AS (SELECT m.* FROM lobby_chat_messages m, r WHERE (m.created_at, m.id) < (r.created_at, r.id)
                  ORDER BY m.created_at DESC, m.id DESC LIMIT ${REPORT_CHAT_BEFORE}),
       newer AS (SELECT m.* FROM lobby_chat_messages m, r WHERE (m.created_at, m.id) > (r.created_at, r.id)
                  ORDER BY m.created_at, m.id LIMIT ${REPORT_CHAT_AFTER})
       SELECT id, user_id, username, message, created_at FROM
         (SELECT * FROM older UNION ALL SELECT m.* FROM lobby_chat_messages m WHERE m.id = $1 UNION ALL SELECT * FROM newer) x
        ORDER BY created_at, id`,
      [line.id],
    );
    return around.map((r) => lobbyLine(r, r.id === messageId));
  }

  /** The player's last lobby lines (an auto-mute report's context). */
  async recentLobbyLines(userId: string): Promise<ReportChatLine[]> {
    const rows: LobbyRow[] = await this.ds.query(
      `SELECT id, user_id, username, message, created_at FROM lobby_chat_messages
        WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${AUTO_MUTE_CHAT_LINES}`,
      [userId],
    );
    return rows.reverse().map((r) => lobbyLine(r, true));
  }
}

function lobbyLine(r: LobbyRow, reported: boolean): ReportChatLine {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    message: r.message,
    at: new Date(r.created_at).toISOString(),
    reported,
  };
}

function tableLine(m: GameChatMessage, reported: boolean): ReportChatLine {
  return {
    id: m.id,
    userId: m.userId,
    username: m.userName,
    message: m.message,
    at: new Date(m.timestamp).toISOString(),
    reported,
  };
}
