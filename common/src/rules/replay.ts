/**
 * Replays (issue #12): a finished game is its settings plus the ordered list of engine actions. These pure
 * functions rebuild every intermediate state with `apply` (server: the replay document; client: the replay
 * viewer steps through the same states) and verify a revealed deal in the browser.
 */
import { Card, cardEquals } from './cards';
import { dealFromSeed, normalizeSeed, Seat, seedCommitment } from './deal';
import { apply, createGame, GameAction } from './engine';
import { engineErrorMessage } from './errors';
import { GameSettings } from './settings';
import { GameState, HandRecord } from './state';

export interface ReplayHandData {
  handNumber: number;
  dealer: Seat;
  seed: string;
  commitment: string;
  cards: Card[][];
  bids: { seat: Seat; bid: number; blind: boolean; auto: boolean }[];
  tricks: { number: number; leader: Seat; winner: Seat; cards: { seat: Seat; card: Card }[] }[];
  score: HandRecord | null;
}

export interface ReplayRun {
  /** states[0] = createGame(settings); states[i + 1] = the state after actions[i]. */
  states: GameState[];
  hands: ReplayHandData[];
  final: GameState;
}

/** Applies every action from `createGame(settings)`; throws on an action the engine refuses (a corrupt log). */
export function runReplay(settings: GameSettings, actions: readonly GameAction[]): ReplayRun {
  let state = createGame(settings);
  const states: GameState[] = [state];
  const hands: ReplayHandData[] = [];
  actions.forEach((action, i) => {
    const r = apply(state, action);
    if (!r.ok) throw new Error(`replay: action ${i} (${action.type}) refused: ${engineErrorMessage(r.error)}`);
    const prev = state;
    const next = r.state;
    if (action.type === 'deal') {
      hands.push({
        handNumber: next.handNumber,
        dealer: next.dealer as Seat,
        seed: next.handSeed as string,
        commitment: next.handCommitment as string,
        cards: next.hands.map((h) => h.slice()),
        bids: [],
        tricks: [],
        score: null,
      });
    }
    const hand = hands[hands.length - 1];
    if (hand) {
      // bids placed by this action (a forced bid may follow a real one in the same apply), in turn order
      const sameHand = action.type !== 'deal';
      const start = sameHand && prev.turn !== null ? prev.turn : ((next.dealer as Seat) + 1) % 4;
      for (let k = 0; k < 4; k++) {
        const seat = ((start + k) % 4) as Seat;
        const before = sameHand ? prev.bids[seat] : null;
        const after = next.bids[seat];
        if (before === null && after !== null && after !== undefined) {
          hand.bids.push({ seat, bid: after, blind: next.blind[seat], auto: next.autoBid[seat] });
        }
      }
      if (sameHand && next.trickNumber > prev.trickNumber && next.lastTrick) {
        const t = next.lastTrick;
        hand.tricks.push({
          number: next.trickNumber,
          leader: t.leader,
          winner: t.winner,
          cards: t.cards.map((c) => ({ seat: c.seat, card: c.card })),
        });
      }
      if (next.history.length > prev.history.length) hand.score = next.history[next.history.length - 1];
    }
    states.push(next);
    state = next;
  });
  return { states, hands, final: state };
}

export interface DealCheck {
  /** sha256(seed) equals the commitment published at the deal. */
  commitmentOk: boolean;
  /** dealFromSeed(seed) gives exactly the four hands shown. */
  dealOk: boolean;
  /** Every card played came from its player's dealt hand, each exactly once. */
  playsOk: boolean;
  ok: boolean;
  /** The recomputed hands (null for a malformed seed). */
  recomputed: Card[][] | null;
}

/** Recomputes a hand's deal from its revealed seed and compares it with the commitment, the hands and the plays. */
export function verifyDeal(hand: {
  seed: string;
  commitment: string;
  cards: Card[][];
  tricks: { cards: { seat: Seat; card: Card }[] }[];
}): DealCheck {
  const seed = normalizeSeed(hand.seed);
  if (!seed) return { commitmentOk: false, dealOk: false, playsOk: false, ok: false, recomputed: null };
  const commitmentOk = seedCommitment(seed) === String(hand.commitment).toLowerCase();
  const recomputed = dealFromSeed(seed);
  const dealOk = recomputed.every(
    (h, s) => h.length === (hand.cards[s]?.length ?? -1) && h.every((c, i) => cardEquals(c, hand.cards[s][i])),
  );
  const played: Card[][] = [[], [], [], []];
  for (const t of hand.tricks) for (const c of t.cards) played[c.seat].push(c.card);
  const playsOk = played.every((cards, s) => {
    const seen = new Set<string>();
    for (const c of cards) {
      const k = `${c.suit}${c.rank}`;
      if (seen.has(k) || !recomputed[s].some((d) => cardEquals(d, c))) return false;
      seen.add(k);
    }
    return true;
  });
  return { commitmentOk, dealOk, playsOk, ok: commitmentOk && dealOk && playsOk, recomputed };
}
