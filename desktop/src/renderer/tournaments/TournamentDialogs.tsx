/**
 * Issue #27: Register (PARTNERS: with a friend as partner, or paired by the server at the start) and Create sit-and-go
 * (name, mode, size, buy-in; the default prize split shown). The server validates; its refusal is shown in red.
 */
import { useEffect, useState } from 'react';
import { formatCoins, formatCoinsExact, type CreateTournamentInput, type TournamentSummary } from '@spades/common';
import { Modal } from '../components/ui';
import { errorText } from '../lib/api';
import type { LobbyPlayer } from '../lib/types';
import { DEFAULT_SPLIT, buyInLabel, ordinal, splitLabel } from './bracket-model';

export function RegisterDialog({
  t,
  friends,
  coins,
  onClose,
  onRegister,
}: {
  t: TournamentSummary | null;
  friends: LobbyPlayer[];
  coins: number | undefined;
  onClose: () => void;
  onRegister: (partnerId: string | undefined) => Promise<void>;
}) {
  const [partner, setPartner] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPartner('');
    setError('');
  }, [t?.id]);
  if (!t) return null;
  const partners = t.mode === 'PARTNERS';
  const short = coins !== undefined && coins < t.buyIn;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Register for ${t.name}`}
      description={
        t.buyIn === 0
          ? 'A free tournament: no buy-in, no prizes.'
          : `The buy-in of ${formatCoinsExact(t.buyIn)} coins is held until the start; unregister before then to get it back.`
      }
      className="modal-sm"
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          onRegister(partner || undefined)
            .then(onClose)
            .catch((err: unknown) => setError(errorText(err, 'Could not register')))
            .finally(() => setBusy(false));
        }}
      >
        {partners && (
          <label className="field">
            <span>Partner</span>
            <select className="select" value={partner} onChange={(e) => setPartner(e.target.value)}>
              <option value="">No partner: paired at the start by rating</option>
              {friends.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.username}
                  {f.online ? '' : ' (offline)'}
                </option>
              ))}
            </select>
            {friends.length === 0 && <span className="muted small">Add friends to register as a team.</span>}
            {partner && <span className="muted small">Your partner pays the buy-in too.</span>}
          </label>
        )}
        {short && <p className="form-warning">You do not have enough coins for the buy-in.</p>}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Register · {buyInLabel(t.buyIn)}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Free, or table buy-ins (common's `isValidBuyIn`: at least 100,000, in steps). */
const BUY_INS = [0, 100_000, 250_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000];

export function CreateSitAndGoDialog({
  open,
  onOpenChange,
  onCreate,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onCreate: (input: CreateTournamentInput) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'PARTNERS' | 'SOLO'>('PARTNERS');
  const [size, setSize] = useState<8 | 16>(8);
  const [buyIn, setBuyIn] = useState(100_000);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setError('');
  }, [open]);
  const pool = Math.floor((size * buyIn * 9) / 10);
  const split = DEFAULT_SPLIT[mode];
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create sit-and-go" className="modal-md">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          onCreate({ name: name.trim(), mode, size, buyIn, kind: 'sit_and_go' })
            .then(() => onOpenChange(false))
            .catch((err: unknown) => setError(errorText(err, 'Could not create the tournament')))
            .finally(() => setBusy(false));
        }}
      >
        <label className="field">
          <span>Name</span>
          <input
            value={name}
            maxLength={40}
            required
            onChange={(e) => setName(e.target.value)}
            placeholder="Friday knock-out"
          />
        </label>
        <div className="field">
          <span id="sng-mode">Mode</span>
          <div className="segmented" role="radiogroup" aria-labelledby="sng-mode">
            {(['PARTNERS', 'SOLO'] as const).map((m) => (
              <button
                key={m}
                type="button"
                role="radio"
                aria-checked={mode === m}
                className={mode === m ? 'active' : ''}
                onClick={() => setMode(m)}
              >
                {m === 'PARTNERS' ? 'Partners' : 'Solo'}
              </button>
            ))}
          </div>
        </div>
        <div className="field">
          <span id="sng-size">Players</span>
          <div className="segmented" role="radiogroup" aria-labelledby="sng-size">
            {([8, 16] as const).map((s) => (
              <button
                key={s}
                type="button"
                role="radio"
                aria-checked={size === s}
                className={size === s ? 'active' : ''}
                onClick={() => setSize(s)}
              >
                {s}
              </button>
            ))}
          </div>
        </div>
        <label className="field">
          <span>Buy-in</span>
          <select className="select" value={buyIn} onChange={(e) => setBuyIn(Number(e.target.value))}>
            {BUY_INS.map((b) => (
              <option key={b} value={b}>
                {b === 0 ? 'Free (no prizes)' : formatCoins(b)}
              </option>
            ))}
          </select>
        </label>
        <div className="prize-preview" aria-label="Prizes">
          {buyIn === 0 ? (
            <span className="muted">A free tournament: no prizes.</span>
          ) : (
            <>
              <span>
                Prize pool if full: <strong className="gold num">{formatCoinsExact(pool)}</strong>
              </span>
              <span className="muted small num">
                Split {splitLabel(split)} (
                {split.map((p, i) => `${ordinal(i + 1)} ${formatCoins(Math.floor((pool * p) / 100))}`).join(', ')})
              </span>
            </>
          )}
        </div>
        <p className="muted small">
          {mode === 'PARTNERS'
            ? 'Teams of two, two teams a table; the winners go on. Register with a friend or be paired by rating.'
            : 'Four a table; the top two of each table go on to one final table.'}{' '}
          It starts as soon as it is full.
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}
