/**
 * Quick chat (issue #31): a preset phrase or emote (common's QUICK_CHAT) posted as a table chat line marked
 * `quick: id`. It travels like typed chat — stored in the table's chat, restored after a restart, never sent to
 * members who block the sender (table.fanout / chat-visibility) — and the gateway counts it against the same
 * per-player chat limit before it gets here. Clients whose `quickChat` option is off hide these lines.
 */
import { QUICK_CHAT_ERROR, quickChatPreset } from '@spades/common';
import { seatOf, TableError, type Effects, type Participant, type TableRecord } from './table.record';
import type { TableMachine } from './table';

export function postQuickChat(
  machine: TableMachine,
  rec: TableRecord,
  fx: Effects,
  from: Participant,
  presetId: string,
): void {
  const preset = quickChatPreset(presetId);
  if (!preset) throw new TableError(QUICK_CHAT_ERROR);
  const member = seatOf(rec, from.userId) !== null || rec.spectators.some((s) => s.userId === from.userId);
  if (!member) throw new TableError('Join or watch the game to chat', 403);
  const message = machine.postChat(rec, fx, { userId: from.userId, userName: from.username }, preset.text);
  // the line was just created in this command's draft (not committed, not shared): mark it as quick chat
  message.quick = preset.id;
}
