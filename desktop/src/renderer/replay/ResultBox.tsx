/** The game's result: the winners, the final scores per side, and the coins paid. */
import { formatCoins, type GameReplay } from '@spades/common';
import { playerName, replayWinners } from './replay-view';

export function ResultBox({ doc }: { doc: GameReplay }) {
  const partners = doc.settings.gameMode === 'PARTNERS';
  const name = (s: number) => playerName(doc, s);
  const winners = replayWinners(doc);
  return (
    <section className="panel replay-panel" aria-label="Final result">
      <h2 className="h4">Result</h2>
      <p>
        <strong>{winners.map(name).join(' & ') || '—'}</strong> {winners.length > 1 ? 'win' : 'wins'}
      </p>
      {doc.result.finalScores.map((s, i) => (
        <div key={i} className="stat-row">
          <span>{partners ? (i === 0 ? 'Red team' : 'Blue team') : name(i)}</span>
          <strong className="num">{s}</strong>
        </div>
      ))}
      {doc.payouts && doc.payouts.some((p) => p > 0) && (
        <p className="small">
          Paid:{' '}
          {doc.payouts
            .map((p, i) => (p > 0 ? `${name(i)} +${formatCoins(p)}` : null))
            .filter(Boolean)
            .join(', ')}
        </p>
      )}
    </section>
  );
}
