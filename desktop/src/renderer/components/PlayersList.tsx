import { useMemo, useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { Ban, Eye, MoreVertical, Star } from 'lucide-react';
import { formatCoins } from '@spades/common';
import type { LobbyPlayer } from '../lib/types';
import { filterAndSortPlayers, type PlayerFilter } from '../lib/players';
import { Avatar } from './ui';
import { ACTION_LABEL, actionsFor, type SocialAction } from './social';

export function PlayersList({
  players,
  selfId,
  onAction,
  onShowStats,
}: {
  players: LobbyPlayer[];
  selfId?: string;
  onAction: (a: SocialAction, p: LobbyPlayer) => void;
  onShowStats: (p: LobbyPlayer) => void;
}) {
  const [filter, setFilter] = useState<PlayerFilter>('all');
  const list = useMemo(() => filterAndSortPlayers(players, filter), [players, filter]);
  return (
    <div className="players">
      <div className="segmented small" role="radiogroup" aria-label="Player filter">
        {(
          [
            ['all', 'All'],
            ['friends', 'Friends'],
            ['hideBlocked', 'Hide Blocked'],
          ] as const
        ).map(([v, l]) => (
          <button
            key={v}
            type="button"
            role="radio"
            aria-checked={filter === v}
            className={filter === v ? 'active' : ''}
            onClick={() => setFilter(v)}
          >
            {l}
          </button>
        ))}
      </div>
      <ul className="player-list" aria-label="Players">
        {list.length === 0 && <li className="muted center pad small">No players to show.</li>}
        {list.map((p) => (
          <li key={p.id} className={`player-row ${p.status}`} data-testid="player-row">
            <button
              type="button"
              className="player-main"
              onClick={() => onShowStats(p)}
              aria-label={`${p.username}, ${p.online ? 'online' : 'offline'}${p.status !== 'none' ? `, ${p.status}` : ''}`}
            >
              <span className="avatar-wrap">
                <Avatar src={p.avatar} id={p.id} name={p.username} size={32} />
                <span className={`presence ${p.online ? 'on' : 'off'}`} aria-hidden="true" />
              </span>
              <span className="player-name">
                {p.username}
                {p.id === selfId && <span className="muted small"> (you)</span>}
              </span>
              {p.status === 'friend' && <Star size={14} className="friend-star" aria-label="Friend" />}
              {p.status === 'blocked' && <Ban size={14} className="blocked-icon" aria-label="Blocked" />}
              <span className="muted small num">{formatCoins(p.coins)}</span>
            </button>
            {p.id !== selfId && (
              <DropdownMenu.Root>
                <DropdownMenu.Trigger className="icon-btn" aria-label={`Actions for ${p.username}`}>
                  <MoreVertical size={16} />
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content className="menu" align="end">
                    <DropdownMenu.Item className="menu-item" onSelect={() => onShowStats(p)}>
                      <Eye size={16} /> View stats
                    </DropdownMenu.Item>
                    {actionsFor(p.status).map((a) => (
                      <DropdownMenu.Item
                        key={a}
                        className={`menu-item ${a === 'block' ? 'danger' : ''}`}
                        onSelect={() => onAction(a, p)}
                      >
                        {ACTION_LABEL[a]}
                      </DropdownMenu.Item>
                    ))}
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
