import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { EllipsisVertical, Flag, Send, VolumeX } from 'lucide-react';
import { isUuid, muteMessage, type ReportContextInput } from '@spades/common';
import type { ChatMessage } from '../lib/types';
import { ReportDialog, type ReportTarget } from '../moderation/ReportDialog';
import { activeMute, setPlayerMuted, useModeration } from '../moderation/moderation-store';
import { useNotify } from './ui';

const TABLE_LINE_ID = /^[0-9a-f]{1,64}$/i;

/** Where a chat line can be reported from (issue #25): lobby lines have UUIDs, table lines hex ids at /table/:gameId. */
export function chatLineContext(messageId: string, gameId: string | undefined): ReportContextInput | null {
  if (isUuid(messageId)) return { kind: 'lobby_chat', messageId };
  if (gameId && TABLE_LINE_ID.test(messageId)) return { kind: 'table_chat', gameId, messageId };
  return null;
}

/** Issue #25: "Report" and "Mute" on another player's chat line. */
function ChatLineMenu({ m, onReport }: { m: ChatMessage; onReport: () => void }) {
  const notify = useNotify();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="icon-btn chat-line-menu" aria-label={`Actions for ${m.username}'s message`}>
        <EllipsisVertical size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item className="menu-item" onSelect={onReport}>
            <Flag size={16} /> Report {m.username}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu-item"
            onSelect={() =>
              void setPlayerMuted(m.userId, true).then(
                () => notify(`You muted ${m.username}: their chat lines are hidden for you`, 'info'),
                () => notify(`Could not mute ${m.username}`),
              )
            }
          >
            <VolumeX size={16} /> Mute {m.username}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Chat list + input. §5: empty/whitespace messages are not sent; messages are trimmed. */
export function ChatPanel({
  messages: allMessages,
  onSend,
  canSend,
  selfId,
  notReadyText = 'Connecting chat...',
  placeholder = 'Type a message…',
  header,
}: {
  messages: ChatMessage[];
  onSend: (text: string) => void;
  canSend: boolean;
  selfId?: string;
  notReadyText?: string;
  placeholder?: string;
  header?: ReactNode;
}) {
  const [text, setText] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const { gameId } = useParams();
  const { mute, mutedIds } = useModeration();
  const myMute = activeMute(mute);
  const [report, setReport] = useState<ReportTarget | null>(null);
  // players I muted (issue #25): hidden like blocked players, the lines already on screen too
  const messages =
    mutedIds.size > 0 ? allMessages.filter((m) => m.userId === selfId || !mutedIds.has(m.userId)) : allMessages;
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length]);
  const send = () => {
    const t = text.trim();
    if (!t || !canSend) return;
    onSend(t);
    setText('');
  };
  return (
    <div className="chat">
      {header}
      <div className="chat-list" ref={listRef} role="log" aria-live="polite" aria-label="Chat messages">
        {!canSend && messages.length === 0 ? (
          <p className="muted center pad">{notReadyText}</p>
        ) : messages.length === 0 ? (
          <p className="muted center pad small">No messages yet. Say hello!</p>
        ) : (
          messages.map((m) =>
            m.system ? (
              <div key={m.id} className="chat-system">
                {m.message}
              </div>
            ) : (
              <div key={m.id} className={`chat-msg ${m.userId === selfId ? 'own' : ''}`}>
                {selfId &&
                  m.userId &&
                  m.userId !== selfId &&
                  !m.userId.startsWith('bot_') &&
                  chatLineContext(m.id, gameId) && (
                    <ChatLineMenu
                      m={m}
                      onReport={() =>
                        setReport({ userId: m.userId, username: m.username, context: chatLineContext(m.id, gameId)! })
                      }
                    />
                  )}
                <span className="chat-author">{m.username}</span>
                <span className="chat-time">
                  {new Date(m.timestamp).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
                </span>
                <p className="chat-text">{m.message}</p>
              </div>
            ),
          )
        )}
      </div>
      {!canSend && messages.length > 0 && <p className="muted small chat-status">{notReadyText}</p>}
      {myMute && (
        <p className="chat-muted-notice" role="status" data-testid="chat-muted-notice">
          {muteMessage(myMute)}
        </p>
      )}
      <ReportDialog target={report} onClose={() => setReport(null)} />
      <form
        className="chat-input"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <input
          aria-label="Chat message"
          value={text}
          maxLength={500}
          onChange={(e) => setText(e.target.value)}
          placeholder={canSend ? placeholder : notReadyText}
          disabled={!canSend}
        />
        <button type="submit" className="icon-btn send" aria-label="Send message" disabled={!canSend || !text.trim()}>
          <Send size={18} />
        </button>
      </form>
    </div>
  );
}
