import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Send } from 'lucide-react';
import type { ChatMessage } from '../lib/types';

/** Chat list + input. §5: empty/whitespace messages are not sent; messages are trimmed. */
export function ChatPanel({
  messages,
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
                <span className="chat-author">{m.username}</span>
                <span className="chat-time">{new Date(m.timestamp).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</span>
                <p className="chat-text">{m.message}</p>
              </div>
            ),
          )
        )}
      </div>
      {!canSend && messages.length > 0 && <p className="muted small chat-status">{notReadyText}</p>}
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
