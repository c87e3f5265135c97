import { useEffect, useRef, useState } from 'react';
import { Popover } from 'radix-ui';
import { MessageCircle } from 'lucide-react';
import { QUICK_CHAT } from '@spades/common';
import { useSocket, useSocketEvent } from '../socket/socket';
import { positionOf } from './model';

let quickSeq = 0;

/**
 * Quick chat (issue #31): preset phrases and emotes in one click (`quick_chat`). The server posts them as chat
 * lines marked `quick`, counts them against the chat limit (its refusal shows as the usual error toast) and never
 * sends them to players who block the sender. Hidden when the player turned quick chat off.
 */
export function QuickChat({ gameId, enabled }: { gameId: string; enabled: boolean }) {
  const sock = useSocket();
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  const send = (id: string) => {
    sock.emit('quick_chat', { gameId, id, actionId: `q-${Date.now().toString(36)}-${quickSeq++}` });
    setOpen(false);
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className="btn btn-secondary btn-sm extras-btn" aria-label="Quick chat">
        <MessageCircle size={15} aria-hidden="true" /> <span className="extras-text">Quick chat</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover quick-chat" sideOffset={8} side="bottom" align="start">
          <div className="quick-row" role="group" aria-label="Quick chat phrases">
            {QUICK_CHAT.filter((p) => p.kind === 'phrase').map((p) => (
              <button key={p.id} type="button" className="quick-chip" onClick={() => send(p.id)}>
                {p.text}
              </button>
            ))}
          </div>
          <div className="quick-row" role="group" aria-label="Emotes">
            {QUICK_CHAT.filter((p) => p.kind === 'emote').map((p) => (
              <button
                key={p.id}
                type="button"
                className="quick-chip emote"
                onClick={() => send(p.id)}
                aria-label={`${p.text} ${p.label ?? ''}`.trim()}
                title={p.label}
              >
                {p.text}
              </button>
            ))}
          </div>
          <Popover.Arrow className="popover-arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

interface Bubble {
  key: string;
  seat: number;
  text: string;
}

/** Incoming quick-chat lines as speech bubbles at the sender's seat for a few seconds (not when turned off). */
export function QuickChatBubbles({
  gameId,
  seatIds,
  mySeat,
  enabled,
}: {
  gameId: string;
  seatIds: (string | null)[];
  mySeat: number | null;
  enabled: boolean;
}) {
  const [bubbles, setBubbles] = useState<Bubble[]>([]);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  useSocketEvent(
    'chat_message',
    (p: { gameId?: string; message?: { id?: string; userId?: string; message?: string; quick?: string } }) => {
      const m = p?.message;
      if (!enabled || p?.gameId !== gameId || !m?.quick || !m.userId) return;
      const seat = seatIds.indexOf(m.userId);
      if (seat < 0) return;
      const key = m.id ?? `${m.userId}-${Date.now()}`;
      setBubbles((b) => [...b.filter((x) => x.seat !== seat), { key, seat, text: m.message ?? '' }]);
      timers.current.push(setTimeout(() => setBubbles((b) => b.filter((x) => x.key !== key)), 3500));
    },
  );
  if (!enabled) return null;
  return (
    <>
      {bubbles.map((b) => (
        <div key={b.key} className={`quick-bubble at-${positionOf(b.seat, mySeat)}`} role="status">
          {b.text}
        </div>
      ))}
    </>
  );
}
