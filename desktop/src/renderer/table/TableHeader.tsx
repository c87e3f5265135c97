/** The bar above the felt: back / leave, the table's badges and details, invite, scores, sound, options, screen. */
import { useEffect, useState } from 'react';
import { ArrowLeft, Lock, Maximize, MessageSquare, Minimize, UserPlus, Volume2, VolumeX } from 'lucide-react';
import { formatCoins } from '@spades/common';
import { Logo } from '../components/ui';
import { isDesktopApp } from '../lib/platform';
import { isMuted, onMutedChange, setMuted } from '../lib/sound';
import { OptionsButton } from './OptionsPanel';
import { ScoreBoard } from './ScoreBoard';
import { TableDetails } from './TableDetails';
import type { TableModel } from './model';

export interface TableHeaderProps {
  table: TableModel;
  badge: { label: string; tone: string };
  spectating: boolean;
  canInvite: boolean;
  onLeave: () => void;
  onInvite: () => void;
  mobile: boolean;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
  /** Narrow screens: the chat is a drawer opened from here. */
  onOpenChat: (() => void) | null;
}

export function TableHeader(props: TableHeaderProps) {
  const { table, badge, spectating } = props;
  const [muted, setMutedState] = useState(isMuted());
  useEffect(() => onMutedChange(setMutedState), []);
  return (
    <header className="table-top">
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={props.onLeave}
        aria-label={spectating ? 'Back to lobby' : 'Leave table'}
      >
        <ArrowLeft size={16} /> <span className="hide-narrow">{spectating ? 'Lobby' : 'Leave'}</span>
      </button>
      <Logo size={26} />
      <div className="table-title">
        <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
        <span className="badge badge-dim">{table.gameMode}</span>
        <span className="gold num hide-narrow">{formatCoins(table.buyIn)}</span>
        {spectating && <span className="badge badge-neutral">SPECTATING</span>}
        {table.private && (
          <span className="badge badge-outline" title="Private table: invitation only">
            <Lock size={11} aria-hidden="true" /> PRIVATE
          </span>
        )}
      </div>
      <TableDetails table={table} badge={badge} />
      <div className="table-top-right">
        {props.canInvite && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={props.onInvite}
            aria-label="Invite players"
          >
            <UserPlus size={15} /> <span className="hide-narrow">Invite</span>
          </button>
        )}
        <ScoreBoard table={table} />
        <button
          type="button"
          className="icon-btn mute-btn"
          aria-label={muted ? 'Unmute sounds' : 'Mute sounds'}
          aria-pressed={muted}
          onClick={() => setMuted(!muted)}
        >
          {muted ? <VolumeX size={18} /> : <Volume2 size={18} />}
        </button>
        <OptionsButton />
        {props.mobile && !isDesktopApp() && (
          <button
            type="button"
            className="icon-btn"
            aria-label={props.fullscreen ? 'Exit full screen' : 'Full screen'}
            onClick={props.onToggleFullscreen}
          >
            {props.fullscreen ? <Minimize size={18} /> : <Maximize size={18} />}
          </button>
        )}
        {props.onOpenChat && (
          <button type="button" className="icon-btn" aria-label="Open chat" onClick={props.onOpenChat}>
            <MessageSquare size={18} />
          </button>
        )}
      </div>
    </header>
  );
}
