/**
 * Claim the rest (issue #31): the seat to play claims every remaining trick. The server decides with common's
 * `claimRefusal` on the seat's own redacted view — the same function the client's "Claim the rest" button obeys
 * through `TableView.canClaim` — and refuses anything it does not prove. A proven claim is played out at once
 * through the engine (`claimPlayout`: the claimer's plan, the other seats their lowest legal card), one
 * `applyEngine` per card, so the event log, scoring, settlement and restarts are exactly those of a hand played
 * card by card; the last trick stays on display like any other before the hand summary.
 */
import { cardCode, claimErrorMessage, claimPlayout, claimRefusal, Seat, viewFor, type TrickCard } from '@spades/common';
import { seatOf, TableError, type Effects, type TableRecord } from './table.record';
import type { TableMachine } from './table';

/** Whether `seat` may claim now (sent to that seat only, as `TableView.canClaim`; no other hand is used). */
export function canClaim(rec: TableRecord, seat: Seat | null): boolean {
  if (seat === null || rec.status !== 'PLAYING') return false;
  return claimRefusal(viewFor(rec.engine, seat)) === null;
}

/** Plays out `userId`'s claim, or throws a TableError (nothing changes). Returns the number of tricks claimed. */
export function claimRest(machine: TableMachine, rec: TableRecord, fx: Effects, userId: string): number {
  const seat = seatOf(rec, userId);
  if (seat === null) throw new TableError('You are not seated at this table', 403);
  const refusal = rec.status === 'PLAYING' ? claimRefusal(viewFor(rec.engine, seat)) : 'NOT_PLAYING';
  if (refusal) throw new TableError(claimErrorMessage(refusal), 409);
  const actions = claimPlayout(rec.engine, seat);
  if (!actions) throw new TableError(claimErrorMessage('NOT_CERTAIN'), 409);
  const tricks = 13 - rec.engine.trickNumber;
  const mine = actions
    .filter((a) => a.type === 'play' && a.seat === seat)
    .map((a) => cardCode((a as { card: TrickCard['card'] }).card));
  const name = rec.seats[seat]?.username ?? `Seat ${seat + 1}`;
  machine.postSystem(
    rec,
    fx,
    `${name} claimed the remaining ${tricks} trick${tricks === 1 ? '' : 's'} (${mine.join(' ')}).`,
  );
  for (const action of actions) {
    if (rec.trickPending) machine.clearTrick(rec, fx); // the previous trick was shown: the claim moves on at once
    machine.applyEngine(rec, fx, action, action.type === 'play' && action.seat === seat ? 'human' : 'server');
  }
  rec.timeouts[seat] = 0;
  return tricks;
}
