/**
 * SHA-256 (FIPS 180-4) in pure TypeScript: no Node or browser crypto, so the same code runs on the
 * server, in the renderer and in bots. Not constant-time; only used on public or server-held data.
 */

// Int32Array (not Uint32Array): V8 keeps int32 values as small integers, which makes the rounds ~3× faster.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const H0 = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

const W = new Int32Array(64);
const STATE = new Int32Array(8);

/** Compresses one 64-byte block (given as 16 big-endian words in W[0..15]) into state h. */
function compress(h: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15];
    const w2 = W[i - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (hh + S1 + ch + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + hh) | 0;
}

/** SHA-256 of `bytes` as 8 big-endian words in `out`; internal helper. */
function hashWords(bytes: Uint8Array, out: Int32Array): void {
  const h = out;
  for (let i = 0; i < 8; i++) h[i] = H0[i];
  const len = bytes.length;
  const totalBlocks = Math.floor((len + 9 + 63) / 64);
  for (let blk = 0; blk < totalBlocks; blk++) {
    for (let i = 0; i < 16; i++) {
      let word = 0;
      for (let j = 0; j < 4; j++) {
        const pos = blk * 64 + i * 4 + j;
        let byte: number;
        if (pos < len) byte = bytes[pos];
        else if (pos === len) byte = 0x80;
        else byte = 0;
        word = (word << 8) | byte;
      }
      W[i] = word;
    }
    if (blk === totalBlocks - 1) {
      // message length in bits, big-endian 64-bit
      const bitLen = len * 8;
      W[14] = Math.floor(bitLen / 0x100000000) | 0;
      W[15] = bitLen | 0;
    }
    compress(h);
  }
}

/** SHA-256 digest (32 bytes) of the given bytes. Does not modify the input. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const h = new Int32Array(8);
  hashWords(bytes, h);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = (h[i] >>> 16) & 0xff;
    out[i * 4 + 2] = (h[i] >>> 8) & 0xff;
    out[i * 4 + 3] = h[i] & 0xff;
  }
  return out;
}

/**
 * Fast path: SHA-256 of (32-byte seed ‖ uint32 big-endian counter) — a 36-byte message, one block —
 * written as 8 big-endian words into `out`. Equal to sha256(concat(seed, be32(counter))).
 */
export function sha256SeedCounterWords(seed: Uint8Array, counter: number, out: Uint32Array | Int32Array): void {
  for (let i = 0; i < 8; i++) {
    W[i] = (seed[i * 4] << 24) | (seed[i * 4 + 1] << 16) | (seed[i * 4 + 2] << 8) | seed[i * 4 + 3];
  }
  W[8] = counter | 0;
  W[9] = 0x80000000;
  for (let i = 10; i < 15; i++) W[i] = 0;
  W[15] = 36 * 8;
  const h = STATE;
  for (let i = 0; i < 8; i++) h[i] = H0[i];
  compress(h);
  for (let i = 0; i < 8; i++) out[i] = h[i];
}

/** SHA-256 of a UTF-8 string (convenience). */
export function sha256Utf8(text: string): Uint8Array {
  return sha256(utf8Encode(text));
}

/** UTF-8 encoding without TextEncoder (kept dependency-free). */
export function utf8Encode(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else {
      out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    }
  }
  return Uint8Array.from(out);
}

const HEX = '0123456789abcdef';

/** Lowercase hex string of the bytes. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return s;
}

/** Parses a hex string (even length, [0-9a-fA-F]); returns null if malformed. */
export function fromHex(hex: string): Uint8Array | null {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
