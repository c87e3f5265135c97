import { useId, useState } from 'react';
import { Switch } from 'radix-ui';
import { SlidersHorizontal } from 'lucide-react';
import { parseCard, type PlayerOptions, type PlayerOptionsInput } from '@spades/common';
import { Modal, useNotify } from '../components/ui';
import { errorText } from '../lib/api';
import { updateOptions, updateOptionsSoon, usePlayerOptions } from '../lib/options';
import { CardFace } from './CardFace';

const PREVIEW = ['AS', 'KH', 'QD', 'JC'].map((c) => parseCard(c)!);

function Row({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="option-row">
      <span className="option-text">
        <span className="option-label">{label}</span>
        {hint && <span className="muted small">{hint}</span>}
      </span>
      <Switch.Root className="switch" checked={checked} onCheckedChange={onChange} aria-label={label}>
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
    </label>
  );
}

/**
 * The Options panel (issue #31), reachable from the table and the profile: stored on the server for the account
 * (lib/options), applied at once.
 */
export function OptionsPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const o = usePlayerOptions();
  const notify = useNotify();
  const volumeId = useId();
  const change = (patch: PlayerOptionsInput) =>
    void updateOptions(patch).catch((e) => notify(errorText(e, 'Could not save your options')));
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Options"
      description="Saved to your account: they follow you to the web and the desktop app."
      className="options-modal"
    >
      <div className="options-form">
        <div className="option-preview" aria-hidden="true">
          {PREVIEW.map((c) => (
            <div key={c.suit} className="option-preview-card">
              <CardFace card={c} />
            </div>
          ))}
        </div>
        <Row
          label="Four-colour deck"
          hint="♠ black, ♥ red, ♦ blue, ♣ green"
          checked={o.fourColourDeck}
          onChange={(v) => change({ fourColourDeck: v })}
        />
        <div className="option-row">
          <span className="option-text">
            <span className="option-label" id={`${volumeId}-size`}>
              Card size
            </span>
          </span>
          <div className="segmented small" role="radiogroup" aria-labelledby={`${volumeId}-size`}>
            {(['normal', 'large'] as PlayerOptions['cardSize'][]).map((s) => (
              <button
                key={s}
                type="button"
                role="radio"
                aria-checked={o.cardSize === s}
                className={o.cardSize === s ? 'active' : ''}
                onClick={() => change({ cardSize: s })}
              >
                {s === 'normal' ? 'Normal' : 'Large'}
              </button>
            ))}
          </div>
        </div>
        <Row
          label="Reduced motion"
          hint="No dealing or sliding animations"
          checked={o.reducedMotion}
          onChange={(v) => change({ reducedMotion: v })}
        />
        <div className="option-row">
          <span className="option-text">
            <label className="option-label" htmlFor={volumeId}>
              Sound volume
            </label>
          </span>
          <span className="option-volume">
            <input
              id={volumeId}
              type="range"
              min={0}
              max={100}
              step={5}
              value={o.soundVolume}
              onChange={(e) =>
                updateOptionsSoon({ soundVolume: Number(e.currentTarget.value) }, (err) =>
                  notify(errorText(err, 'Could not save your options')),
                )
              }
            />
            <output className="num" htmlFor={volumeId}>
              {o.soundVolume}%
            </output>
          </span>
        </div>
        <Row
          label="Quick chat"
          hint="Preset phrases and emotes at the table"
          checked={o.quickChat}
          onChange={(v) => change({ quickChat: v })}
        />
        <Row
          label="Bid hint"
          hint="Show the suggested bid in unrated games"
          checked={o.bidHint}
          onChange={(v) => change({ bidHint: v })}
        />
      </div>
    </Modal>
  );
}

/** The button that opens the Options panel (table header, profile). */
export function OptionsButton({ withText = false }: { withText?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={withText ? 'btn btn-secondary btn-sm' : 'icon-btn'}
        aria-label="Options"
        onClick={() => setOpen(true)}
      >
        <SlidersHorizontal size={withText ? 15 : 18} aria-hidden="true" />
        {withText && ' Options'}
      </button>
      {open && <OptionsPanel open onOpenChange={setOpen} />}
    </>
  );
}
