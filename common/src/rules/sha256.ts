/**
 * SHA-256 for the provably-fair deal: the audited `@noble/hashes` implementation (pure JS, no Node or browser
 * crypto), so the same code runs on the server, in the renderer's replay viewer and in bots. Only the byte and hex
 * helpers the deal needs are added here.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** SHA-256 digest (32 bytes) of the given bytes. Does not modify the input. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

const SEED_COUNTER = new Uint8Array(36);

/**
 * SHA-256 of (32-byte seed ‖ uint32 big-endian counter), written as 8 big-endian words into `out`:
 * the deal's random stream (see deal.ts).
 */
export function sha256SeedCounterWords(seed: Uint8Array, counter: number, out: Uint32Array | Int32Array): void {
  SEED_COUNTER.set(seed.subarray(0, 32), 0);
  SEED_COUNTER[32] = counter >>> 24;
  SEED_COUNTER[33] = (counter >>> 16) & 0xff;
  SEED_COUNTER[34] = (counter >>> 8) & 0xff;
  SEED_COUNTER[35] = counter & 0xff;
  const d = nobleSha256(SEED_COUNTER);
  for (let i = 0; i < 8; i++) out[i] = (d[i * 4] << 24) | (d[i * 4 + 1] << 16) | (d[i * 4 + 2] << 8) | d[i * 4 + 3];
}

/** SHA-256 of a UTF-8 string (convenience). */
export function sha256Utf8(text: string): Uint8Array {
  return sha256(utf8Encode(text));
}

/** UTF-8 bytes of a string. */
export function utf8Encode(text: string): Uint8Array {
  return utf8ToBytes(text);
}

/** Lowercase hex string of the bytes. */
export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

/** Parses a hex string (even length, [0-9a-fA-F]); returns null if malformed. */
export function fromHex(hex: string): Uint8Array | null {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
