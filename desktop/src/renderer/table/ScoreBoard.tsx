import { seatColor, type TableModel } from './model';

/**
 * The running scores and bags (presentational, issue #12): per team in PARTNERS (Red / Blue), per seat in SOLO.
 * The live table's top bar and the replay viewer draw it from the same `TableModel`.
 */
export function ScoreBoard({ table }: { table: Pick<TableModel, 'gameMode' | 'scores' | 'bags' | 'seats'> }) {
  return (
    <div className="scoreboard" aria-label="Scores">
      {table.gameMode === 'PARTNERS'
        ? [0, 1].map((team) => (
            <div key={team} className={`score team-${team === 0 ? 'red' : 'blue'}`}>
              <span className="score-label">{team === 0 ? 'Red' : 'Blue'}</span>
              <strong className="num">{table.scores[team] ?? 0}</strong>
              <span className="bags num" title="Bags">
                {(((table.bags[team] ?? 0) % 10) + 10) % 10} bags
              </span>
            </div>
          ))
        : [0, 1, 2, 3].map((s) => (
            <div key={s} className={`score team-${seatColor('SOLO', s)}`}>
              <span className="score-label">{table.seats[s]?.username ?? `Seat ${s + 1}`}</span>
              <strong className="num">{table.scores[s] ?? 0}</strong>
              <span className="bags num">{(((table.bags[s] ?? 0) % 10) + 10) % 10} bags</span>
            </div>
          ))}
    </div>
  );
}
