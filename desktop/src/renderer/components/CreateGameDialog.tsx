import { useId, useState } from 'react';
import { Switch } from 'radix-ui';
import { Minus, Plus } from 'lucide-react';
import {
  applySettingsChange,
  DEFAULT_SETTINGS,
  formatBuyIn,
  formatCoins,
  formatCoinsExact,
  GIMMICKS,
  MAX_POINTS_RANGE,
  MIN_POINTS_RANGE,
  nextBuyIn,
  nextMaxPoints,
  nextMinPoints,
  prevBuyIn,
  prevMaxPoints,
  prevMinPoints,
  presetNotOfferedMessage,
  prizePreview,
  settingsControlState,
  settingsForPreset,
  tablePresetOf,
  validateSettings,
  BUY_IN_MAX,
  BUY_IN_MIN,
  type BiddingOption,
  type GameMode,
  type GameSettings,
  type Gimmick,
  type SettingsChange,
  type TablePresetKey,
} from '@spades/common';
import { usePublicSettings } from '../lib/server-settings';
import { Modal } from './ui';

const BIDDING_LABELS: Record<BiddingOption, string> = {
  REG: 'REG',
  WHIZ: 'WHIZ',
  MIRROR: 'MIRROR',
  GIMMICK: 'GIMMICK',
};

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  labels,
  isDisabled,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  labels?: Partial<Record<T, string>>;
  /** An option the server does not offer (issue #25): shown, not selectable. */
  isDisabled?: (v: T) => boolean;
}) {
  const id = useId();
  return (
    <div className="control">
      <span className="control-label" id={id}>
        {label}
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby={id}>
        {options.map((o) => (
          <button
            key={o}
            type="button"
            role="radio"
            aria-checked={value === o}
            className={value === o ? 'active' : ''}
            disabled={isDisabled?.(o) ?? false}
            onClick={() => onChange(o)}
          >
            {labels?.[o] ?? o}
          </button>
        ))}
      </div>
    </div>
  );
}

function Stepper({
  label,
  display,
  onDec,
  onInc,
  decDisabled,
  incDisabled,
}: {
  label: string;
  display: string;
  onDec: () => void;
  onInc: () => void;
  decDisabled: boolean;
  incDisabled: boolean;
}) {
  return (
    <div className="control stepper-control">
      <span className="control-label">{label}</span>
      <div className="stepper" role="group" aria-label={label}>
        <button
          type="button"
          className="icon-btn"
          aria-label={`Decrease ${label}`}
          onClick={onDec}
          disabled={decDisabled}
        >
          <Minus size={16} />
        </button>
        <output aria-live="polite" data-testid={`value-${label}`}>
          {display}
        </output>
        <button
          type="button"
          className="icon-btn"
          aria-label={`Increase ${label}`}
          onClick={onInc}
          disabled={incDisabled}
        >
          <Plus size={16} />
        </button>
      </div>
    </div>
  );
}

function Toggle({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className={`toggle ${disabled ? 'disabled' : ''}`}>
      <Switch.Root
        className="switch"
        checked={checked}
        disabled={disabled}
        onCheckedChange={onChange}
        aria-label={label}
      >
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
      <span>{label}</span>
    </label>
  );
}

/** The prize line of §9 (clarification 2), from common's prizePreview. */
export function PrizePreview({ settings }: { settings: Pick<GameSettings, 'gameMode' | 'buyIn'> }) {
  const p = prizePreview(settings);
  return (
    <div className="prize-preview" aria-label="Prize preview">
      <div>
        <span className="muted small">Pot (after 10% fee)</span>
        <strong className="gold">{formatCoinsExact(p.pot)}</strong>
      </div>
      {p.mode === 'PARTNERS' ? (
        <div>
          <span className="muted small">Each winning partner</span>
          <strong className="gold">{formatCoinsExact(p.perWinner)}</strong>
        </div>
      ) : (
        <>
          <div>
            <span className="muted small">1st place</span>
            <strong className="gold">{formatCoinsExact(p.first)}</strong>
          </div>
          <div>
            <span className="muted small">2nd place</span>
            <strong className="gold">{formatCoinsExact(p.second)}</strong>
          </div>
        </>
      )}
    </div>
  );
}

/**
 * Issue #25: after a change of mode or bidding option, a combination the server does not offer moves to the first
 * offered one of that mode (or gimmick, for GIMMICK), through the same coupling rules; other changes are kept as made.
 */
function offeredAfter(
  next: GameSettings,
  c: SettingsChange,
  offered: readonly TablePresetKey[] | undefined,
): GameSettings {
  if (!offered || (c.field !== 'gameMode' && c.field !== 'biddingOption') || offered.includes(tablePresetOf(next)))
    return next;
  const candidates = offered.filter((p) => p.startsWith(`${next.gameMode}:`));
  const pick =
    c.field === 'biddingOption' && next.biddingOption === 'GIMMICK'
      ? candidates.find((p) => (GIMMICKS as readonly string[]).includes(p.split(':')[1]))
      : c.field === 'gameMode'
        ? candidates[0]
        : undefined;
  if (!pick) return next;
  const target = settingsForPreset(pick, next);
  let out = applySettingsChange(next, { field: 'biddingOption', value: target.biddingOption });
  if (target.biddingOption === 'GIMMICK' && target.gimmick)
    out = applySettingsChange(out, { field: 'gimmick', value: target.gimmick });
  return out;
}

export function CreateGameForm({
  onSubmit,
  onCancel,
  busy = false,
  coins,
  initial = DEFAULT_SETTINGS,
  offered,
}: {
  /** `opts.private`: a private table (issue #12), invitation only. */
  onSubmit: (settings: GameSettings, opts: { private: boolean }) => void;
  onCancel: () => void;
  busy?: boolean;
  coins?: number;
  /** Starting values (default: the spec's defaults). */
  initial?: GameSettings;
  /** Issue #25: the table presets the server offers (GET /api/settings/public); undefined = all. */
  offered?: readonly TablePresetKey[];
}) {
  const [s, setS] = useState<GameSettings>(() => ({ ...initial, specialRules: { ...initial.specialRules } }));
  const change = (c: SettingsChange) => setS((prev) => offeredAfter(applySettingsChange(prev, c), c, offered));
  const ctl = settingsControlState(s);
  const checked = validateSettings(s);
  const has = (p: string) => !offered || offered.includes(p as TablePresetKey);
  const notOffered =
    checked.ok && !has(tablePresetOf(checked.settings))
      ? presetNotOfferedMessage(tablePresetOf(checked.settings))
      : null;
  const valid = notOffered ? ({ ok: false, message: notOffered } as const) : checked;
  const modeOffered = (m: GameMode) => !offered || offered.some((p) => p.startsWith(`${m}:`));
  const biddingOffered = (b: BiddingOption) =>
    b === 'GIMMICK' ? GIMMICKS.some((g) => has(`${s.gameMode}:${g}`)) : has(`${s.gameMode}:${b}`);
  const tooPoor = coins !== undefined && coins < s.buyIn;
  const [priv, setPriv] = useState(false);

  return (
    <form
      className="create-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid.ok) onSubmit(valid.settings, { private: priv });
      }}
    >
      <Segmented<GameMode>
        label="Game mode"
        value={s.gameMode}
        options={['PARTNERS', 'SOLO']}
        isDisabled={(m) => !modeOffered(m)}
        onChange={(v) => change({ field: 'gameMode', value: v })}
      />
      <Segmented<BiddingOption>
        label="Bidding"
        value={s.biddingOption}
        options={['REG', 'WHIZ', 'MIRROR', 'GIMMICK']}
        labels={BIDDING_LABELS}
        isDisabled={(b) => !biddingOffered(b)}
        onChange={(v) => change({ field: 'biddingOption', value: v })}
      />
      <div className="control">
        <label className="control-label" htmlFor="gimmick-select">
          Gimmick
        </label>
        <select
          id="gimmick-select"
          className="select"
          value={s.gimmick ?? 'SUICIDE'}
          disabled={!ctl.gimmickEnabled}
          onChange={(e) => change({ field: 'gimmick', value: e.target.value as Gimmick })}
        >
          {GIMMICKS.map((g) => (
            <option
              key={g}
              value={g}
              disabled={(g === 'SUICIDE' && !ctl.suicideSelectable) || !has(`${s.gameMode}:${g}`)}
            >
              {g}
            </option>
          ))}
        </select>
      </div>
      <div className="stepper-row">
        <Stepper
          label="Min points"
          display={String(s.minPoints)}
          onDec={() => change({ field: 'minPoints', value: prevMinPoints(s.minPoints) })}
          onInc={() => change({ field: 'minPoints', value: nextMinPoints(s.minPoints) })}
          decDisabled={s.minPoints <= MIN_POINTS_RANGE.min}
          incDisabled={s.minPoints >= MIN_POINTS_RANGE.max}
        />
        <Stepper
          label="Max points"
          display={String(s.maxPoints)}
          onDec={() => change({ field: 'maxPoints', value: prevMaxPoints(s.maxPoints) })}
          onInc={() => change({ field: 'maxPoints', value: nextMaxPoints(s.maxPoints) })}
          decDisabled={s.maxPoints <= MAX_POINTS_RANGE.min}
          incDisabled={s.maxPoints >= MAX_POINTS_RANGE.max}
        />
        <Stepper
          label="Buy-in"
          display={formatBuyIn(s.buyIn)}
          onDec={() => change({ field: 'buyIn', value: prevBuyIn(s.buyIn) })}
          onInc={() => change({ field: 'buyIn', value: nextBuyIn(s.buyIn) })}
          decDisabled={s.buyIn <= BUY_IN_MIN}
          incDisabled={s.buyIn >= BUY_IN_MAX}
        />
      </div>
      <div className="toggle-grid">
        <Toggle
          label="Nil"
          checked={s.specialRules.allowNil}
          disabled={!ctl.nilEnabled}
          onChange={(v) => change({ field: 'allowNil', value: v })}
        />
        <Toggle
          label="Blind Nil"
          checked={s.specialRules.allowBlindNil}
          disabled={!ctl.blindNilEnabled}
          onChange={(v) => change({ field: 'allowBlindNil', value: v })}
        />
        <Toggle
          label="Screamer"
          checked={s.specialRules.screamer}
          onChange={(v) => change({ field: 'screamer', value: v })}
        />
        <Toggle
          label="Assassin"
          checked={s.specialRules.assassin}
          onChange={(v) => change({ field: 'assassin', value: v })}
        />
      </div>
      <div className="toggle-grid private-row">
        <Toggle label="Private" checked={priv} onChange={setPriv} />
        <span className="muted small">
          {priv ? 'Invitation only: not listed in the lobby.' : 'Listed in the lobby for everybody.'}
        </span>
      </div>
      <PrizePreview settings={s} />
      {!valid.ok && (
        <p className="form-error" role="alert">
          {valid.message}
        </p>
      )}
      {tooPoor && <p className="form-warning">Your balance ({formatCoins(coins ?? 0)}) is below this buy-in.</p>}
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={!valid.ok || busy}>
          {busy ? 'Creating…' : 'Create Game'}
        </button>
      </div>
    </form>
  );
}

export function CreateGameDialog({
  open,
  onOpenChange,
  onSubmit,
  busy,
  coins,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSubmit: (s: GameSettings, opts: { private: boolean }) => void;
  busy?: boolean;
  coins?: number;
}) {
  const offered = usePublicSettings()?.tablePresets;
  // the spec's defaults, or the first kind of table the server offers when it does not offer those
  const initial =
    offered?.length && !offered.includes(tablePresetOf(DEFAULT_SETTINGS))
      ? settingsForPreset(offered[0], DEFAULT_SETTINGS)
      : DEFAULT_SETTINGS;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create Game" className="modal-md">
      <CreateGameForm
        onSubmit={onSubmit}
        onCancel={() => onOpenChange(false)}
        busy={busy}
        coins={coins}
        offered={offered}
        initial={initial}
      />
    </Modal>
  );
}
