/**
 * Deterministic, verifiable deal from a 32-byte seed.
 *
 * Algorithm (anyone can re-implement it to verify a published seed against its commitment):
 *  - Random stream: block k (k = 0, 1, 2, …) is SHA-256(seed ‖ uint32_be(k)), read as sixteen big-endian
 *    uint16 values (bytes 0-1, 2-3, …, 30-31); values are consumed in order.
 *  - Start from the deck in index order (♠2..♠A, ♥2..♥A, ♦2..♦A, ♣2..♣A, see DECK), and run Fisher–Yates
 *    for i = 51 down to 1: draw j uniform in [0, i] by rejection sampling (draw a value v; reject when
 *    v ≥ 65536 − (65536 mod (i+1)); else j = v mod (i+1)), then swap positions i and j. (16-bit draws
 *    need ~4 SHA-256 blocks per deal; the rejection probability is below 0.08% per draw.)
 *  - Seat s receives shuffled positions 13·s … 13·s+12; each hand is then sorted with sortHand.
 *  - Commitment: hex(SHA-256(seed)), published before the hand; the seed is published after it.
 *  - First dealer of a game: SHA-256(seed ‖ ASCII "first-dealer")[0] mod 4 of the game's first seed.
 */
import { Card, DECK, sortHand } from './cards';
import { fromHex, sha256, sha256SeedCounterWords, toHex, utf8Encode } from './sha256';

export type Seat = 0 | 1 | 2 | 3;
export const SEATS: readonly Seat[] = [0, 1, 2, 3];

export const SEED_BYTES = 32;

/** Accepts a 32-byte Uint8Array or a 64-char hex string; returns a copy of the bytes or null. */
export function normalizeSeed(seed: unknown): Uint8Array | null {
  if (typeof seed === 'string') {
    const b = fromHex(seed);
    return b && b.length === SEED_BYTES ? b : null;
  }
  // Any byte view (Uint8Array, Node Buffer, a Uint8Array from another realm) of exactly 32 bytes.
  if (isByteArray(seed) && seed.length === SEED_BYTES) return Uint8Array.from(seed);
  return null;
}

function isByteArray(x: unknown): x is Uint8Array {
  return (
    x instanceof Uint8Array || (ArrayBuffer.isView(x) && Object.prototype.toString.call(x) === '[object Uint8Array]')
  );
}

const blockWords = new Int32Array(8);

/** Shuffled card indices 0..51 (Fisher–Yates as documented above). */
export function shuffledIndicesFromSeed(seed: Uint8Array): number[] {
  if (!isByteArray(seed) || seed.length !== SEED_BYTES) {
    throw new RangeError('seed must be 32 bytes');
  }
  const deck: number[] = [];
  for (let i = 0; i < 52; i++) deck.push(i);
  let counter = 0;
  let pos = 16; // next uint16 position in the current block (16 per block)
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 65536 - (65536 % n);
    let j: number;
    for (;;) {
      if (pos === 16) {
        sha256SeedCounterWords(seed, counter++, blockWords);
        pos = 0;
      }
      const w = blockWords[pos >> 1];
      const v = (pos & 1) === 0 ? w >>> 16 : w & 0xffff;
      pos++;
      if (v < limit) {
        j = v % n;
        break;
      }
    }
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}

/** Four sorted hands of 13 cards from a 32-byte seed (see the algorithm above). Throws only on a wrong-size seed. */
export function dealFromSeed(seed: Uint8Array): Card[][] {
  const deck = shuffledIndicesFromSeed(seed);
  const hands: Card[][] = [];
  for (let s = 0; s < 4; s++) {
    hands.push(sortHand(deck.slice(s * 13, s * 13 + 13).map((i) => DECK[i])));
  }
  return hands;
}

/** Hex SHA-256 of the seed: published when the hand is dealt. */
export function seedCommitment(seed: Uint8Array | string): string {
  const bytes = normalizeSeed(seed);
  if (!bytes) throw new RangeError('seed must be 32 bytes or 64 hex chars');
  return toHex(sha256(bytes));
}

/** Verifies that a revealed seed matches a published commitment. */
export function verifySeedCommitment(seed: Uint8Array | string, commitment: string): boolean {
  const bytes = normalizeSeed(seed);
  return bytes !== null && toHex(sha256(bytes)) === String(commitment).toLowerCase();
}

const FIRST_DEALER_TAG = utf8Encode('first-dealer');

/** First dealer of a game, derived from the game's first deal seed (clarification 3). */
export function firstDealerFromSeed(seed: Uint8Array): Seat {
  const msg = new Uint8Array(seed.length + FIRST_DEALER_TAG.length);
  msg.set(seed, 0);
  msg.set(FIRST_DEALER_TAG, seed.length);
  return (sha256(msg)[0] % 4) as Seat;
}
