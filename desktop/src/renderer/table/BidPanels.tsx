/** The bidding prompts at the table: the bid grid, and the blind-nil question before the cards are shown. */
export function BiddingPanel({
  bids,
  onBid,
  disabled,
}: {
  bids: number[];
  onBid: (b: number) => void;
  disabled: boolean;
}) {
  return (
    <div className="table-panel bid-panel" role="dialog" aria-label="Make your bid">
      <h2 className="panel-title">Your bid</h2>
      <div className="bid-grid">
        {bids.map((b) => (
          <button
            key={b}
            type="button"
            className={`bid-btn ${b === 0 ? 'nil' : ''}`}
            onClick={() => onBid(b)}
            disabled={disabled}
            aria-label={b === 0 ? 'Bid nil' : `Bid ${b}`}
          >
            {b === 0 ? 'Nil' : b}
          </button>
        ))}
      </div>
      {bids.length === 0 && <p className="muted small">Waiting for your forced bid…</p>}
    </div>
  );
}

export function BlindNilPrompt({ onYes, onNo }: { onYes: () => void; onNo: () => void }) {
  return (
    <div className="table-panel blind-panel" role="alertdialog" aria-label="Bid blind nil?">
      <h2 className="panel-title">Bid blind nil?</h2>
      <p className="muted small">Your cards stay hidden. +200 if you take no trick, −200 otherwise.</p>
      <div className="row gap-2 center-row">
        {/* the safe choice has the focus: Enter alone never commits a ±200 bid */}
        <button type="button" className="btn btn-ghost" onClick={onNo} autoFocus>
          No
        </button>
        <button type="button" className="btn btn-gold" onClick={onYes}>
          Yes
        </button>
      </div>
    </div>
  );
}
