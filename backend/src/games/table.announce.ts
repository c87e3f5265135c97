/**
 * The base of the table machine (table.ts): its clock and config, and the table's game chat, where the machine
 * posts what happens ("… joined the game.", "… is watching."). Pure, no I/O. Split from table.ts (issue #29).
 */
import { randomBytes } from 'node:crypto';
import type { GamesConfig } from './games.config';
import type { ChatMessage, Effects, Participant, TableRecord } from './table.record';

/** The machine's clock, config and chat; `now` and the config are injected so tests and restarts are deterministic. */
export abstract class TableAnnouncer {
  constructor(
    readonly cfg: GamesConfig,
    readonly now: () => number = Date.now,
  ) {}

  postSystem(rec: TableRecord, fx: Effects, text: string): void {
    this.postChat(rec, fx, { userId: 'system', userName: 'System' }, text);
  }

  postChat(rec: TableRecord, fx: Effects, from: { userId: string; userName: string }, text: string): ChatMessage {
    const message: ChatMessage = {
      id: randomBytes(8).toString('hex'),
      gameId: rec.id,
      userId: from.userId,
      userName: from.userName,
      message: text,
      timestamp: this.now(),
      isGameMessage: true,
    };
    rec.chat.push(message);
    if (rec.chat.length > this.cfg.chatHistory) rec.chat.splice(0, rec.chat.length - this.cfg.chatHistory);
    fx.notes.push({ type: 'chat_message', message });
    return message;
  }

  announce(rec: TableRecord, fx: Effects, user: Participant): void {
    if (rec.announced.includes(user.userId)) return;
    rec.announced.push(user.userId);
    this.postSystem(rec, fx, `${user.username} joined the game.`);
  }

  /** '{name} is watching.' once per game for a spectator (a spectator does not join the game). */
  /** Posts "… is watching." once per user and table; false when it was already posted. */
  announceWatching(rec: TableRecord, fx: Effects, user: Participant): boolean {
    const key = `watch:${user.userId}`;
    if (rec.announced.includes(key) || rec.announced.includes(user.userId)) return false;
    rec.announced.push(key);
    this.postSystem(rec, fx, `${user.username} is watching.`);
    return true;
  }
}
