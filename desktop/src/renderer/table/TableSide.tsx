/**
 * The side panel: the table chat (or the lobby chat) and the people at the table, with Block / Unblock and the
 * host's Remove before the start. On a narrow screen it slides in over the felt.
 */
import { useState } from 'react';
import { Tabs } from 'radix-ui';
import { MessageSquare, Users, X } from 'lucide-react';
import { Avatar } from '../components/ui';
import { ChatPanel } from '../components/ChatPanel';
import { withoutBlocked } from '../lib/blocked';
import type { ChatMessage } from '../lib/types';
import { SpectatorEye } from './Seat';
import { seatColor, type TableModel } from './model';
import { tablePeople, type TablePerson } from './derived';

export interface TableSideProps {
  table: TableModel;
  selfId: string | undefined;
  isHost: boolean;
  narrow: boolean;
  open: boolean;
  onClose: () => void;
  /** The table's chat, already filtered by the player's quick-chat option. */
  gameChat: ChatMessage[];
  lobbyChat: ChatMessage[];
  blocked: ReadonlySet<string>;
  canSendGame: boolean;
  canSendLobby: boolean;
  onSend: (text: string, room: 'game' | 'lobby') => void;
  onBlockToggle: (p: TablePerson) => void;
  onRemovePlayer: (userId: string, username: string) => void;
}

export function TableSide(props: TableSideProps) {
  const { table, selfId, isHost, narrow, open, onClose, blocked } = props;
  const [room, setRoom] = useState<'game' | 'lobby'>('game');
  const roomButton = (value: 'game' | 'lobby', label: string) => (
    <button
      type="button"
      role="radio"
      aria-checked={room === value}
      className={room === value ? 'active' : ''}
      onClick={() => setRoom(value)}
    >
      {label}
    </button>
  );
  return (
    <aside className={`table-side ${narrow ? (open ? 'open' : 'closed') : ''}`} aria-label="Table chat and players">
      {narrow && (
        <button type="button" className="icon-btn side-close" aria-label="Close chat" onClick={onClose}>
          <X size={18} />
        </button>
      )}
      <Tabs.Root defaultValue="chat" className="tabs fill">
        <Tabs.List className="tab-list" aria-label="Table panel">
          <Tabs.Trigger value="chat" className="tab">
            <MessageSquare size={16} /> Chat
          </Tabs.Trigger>
          <Tabs.Trigger value="players" className="tab">
            <Users size={16} /> Players
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="chat" className="tab-content fill">
          <ChatPanel
            header={
              <div className="segmented small chat-toggle" role="radiogroup" aria-label="Chat room">
                {roomButton('game', 'Game chat')}
                {roomButton('lobby', 'Lobby chat')}
              </div>
            }
            messages={withoutBlocked(room === 'game' ? props.gameChat : props.lobbyChat, blocked)}
            onSend={(text) => props.onSend(text, room)}
            canSend={room === 'game' ? props.canSendGame : props.canSendLobby}
            selfId={selfId}
            placeholder={room === 'game' ? 'Message the table…' : 'Message the lobby…'}
          />
        </Tabs.Content>
        <Tabs.Content value="players" className="tab-content fill">
          <ul className="player-list pad">
            {tablePeople(table).map((p) => (
              <li key={p.key} className="player-row">
                <span className="player-main static">
                  <Avatar src={p.avatar} id={p.id} name={p.username} size={30} isBot={p.bot} />
                  <span className="player-name">{p.username}</span>
                  {p.spectator ? (
                    <SpectatorEye />
                  ) : (
                    <span
                      className={`dot team-${seatColor(table.gameMode, p.seat)}`}
                      aria-label={`Seat ${p.seat + 1}`}
                    />
                  )}
                  {!p.bot && p.id !== selfId && (
                    <button
                      type="button"
                      className="link-danger"
                      onClick={() => props.onBlockToggle(p)}
                      aria-label={`${blocked.has(p.id) ? 'Unblock' : 'Block'} ${p.username}`}
                    >
                      {blocked.has(p.id) ? 'Unblock' : 'Block'}
                    </button>
                  )}
                  {isHost && table.status === 'WAITING' && !p.bot && p.id !== selfId && (
                    <button
                      type="button"
                      className="link-danger"
                      onClick={() => props.onRemovePlayer(p.id, p.username)}
                      aria-label={`Remove ${p.username} from the table`}
                    >
                      Remove
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </aside>
  );
}
