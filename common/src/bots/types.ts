import type { GameAction, PlayerView } from '../rules';

/**
 * A bot decides the action of the seat it views. It only ever receives a PlayerView (redacted).
 * `act` returns the action for `view.viewer` when it is that seat's turn (a bot whose cards are
 * withheld may return `{type:'reveal'}` first), or null when there is nothing to do.
 * `rng` returns uniform numbers in [0, 1); bots must use it (not Math.random) so games are reproducible.
 */
export interface Bot {
  name: string;
  act(view: PlayerView, rng: () => number): GameAction | null;
}
