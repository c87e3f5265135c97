/** The replay's toolbar: step buttons, play/pause, hand and speed pickers, and the position caption. */
import {
  ChevronFirst,
  ChevronLast,
  ChevronLeft,
  ChevronRight,
  ChevronsLeft,
  ChevronsRight,
  Pause,
  Play,
  type LucideIcon,
} from 'lucide-react';
import type { GameReplay } from '@spades/common';
import { nextTrick, prevTrick, type ReplayTimeline } from './replay-model';
import { REPLAY_SPEEDS } from './replay-view';
import type { ReplayPlayback } from './useReplayPlayback';

/** One of the toolbar's step buttons: an icon with its label for screen readers. */
function StepButton(b: { label: string; icon: LucideIcon; onClick: () => void; disabled: boolean }) {
  const Icon = b.icon;
  return (
    <button type="button" className="icon-btn" aria-label={b.label} onClick={b.onClick} disabled={b.disabled}>
      <Icon size={20} />
    </button>
  );
}

export function ReplayControls({ t, doc, p }: { t: ReplayTimeline; doc: GameReplay; p: ReplayPlayback }) {
  const { pos, end, frame, playing, curHand, handCount } = p;
  return (
    <div className="replay-controls" role="toolbar" aria-label="Replay controls">
      <div className="replay-buttons">
        <StepButton
          label="Previous hand"
          icon={ChevronFirst}
          onClick={() => p.goHand(p.atHandStart ? curHand - 1 : curHand)}
          disabled={pos <= (t.handStarts[0] ?? 0)}
        />
        <StepButton
          label="Previous trick"
          icon={ChevronsLeft}
          onClick={() => p.step(prevTrick)}
          disabled={pos <= (t.handStarts[0] ?? 0)}
        />
        <StepButton label="Previous card" icon={ChevronLeft} onClick={p.back} disabled={pos <= (t.stops[0] ?? 0)} />
        <button
          type="button"
          className="btn btn-primary btn-sm play-btn"
          aria-label={playing ? 'Pause' : 'Play'}
          aria-pressed={playing}
          onClick={p.togglePlay}
          disabled={pos >= end && !playing}
        >
          {playing ? <Pause size={18} /> : <Play size={18} />}
        </button>
        <StepButton label="Next card" icon={ChevronRight} onClick={p.forward} disabled={pos >= end} />
        <StepButton label="Next trick" icon={ChevronsRight} onClick={() => p.step(nextTrick)} disabled={pos >= end} />
        <StepButton
          label="Next hand"
          icon={ChevronLast}
          onClick={() => (curHand < handCount ? p.goHand(curHand + 1) : p.toEnd())}
          disabled={pos >= end}
        />
      </div>
      <div className="replay-options">
        <label className="replay-option">
          <span className="muted small">Hand</span>
          <select
            className="select"
            value={curHand}
            onChange={(e) => p.goHand(Number(e.target.value))}
            aria-label="Jump to hand"
          >
            {doc.hands.map((h) => (
              <option key={h.handNumber} value={h.handNumber}>
                {h.handNumber} / {handCount}
              </option>
            ))}
          </select>
        </label>
        <label className="replay-option">
          <span className="muted small">Speed</span>
          <select
            className="select"
            value={p.speed}
            onChange={(e) => p.setSpeed(Number(e.target.value))}
            aria-label="Playback speed"
          >
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="replay-caption" role="status" aria-label="Replay position">
        <span className="num">
          Hand {frame.handNumber || '—'} · {frame.trickNumber ? `Trick ${frame.trickNumber}` : 'Bidding'}
        </span>{' '}
        <span className="muted">{frame.caption}</span>
      </p>
      <p className="muted small replay-keys hide-narrow">← → card · Shift+← → or ↑ ↓ trick · Space play/pause</p>
    </div>
  );
}
