import { describe, it, expect } from 'vitest';
import { fromHex, sha256, sha256SeedCounterWords, sha256Utf8, toHex } from './sha256';

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    ['The quick brown fox jumps over the lazy dog', 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592'],
  ])('NIST/known vector %j', (msg, hex) => {
    expect(toHex(sha256Utf8(msg))).toBe(hex);
  });

  it('one million "a"', () => {
    const m = new Uint8Array(1_000_000).fill(0x61);
    expect(toHex(sha256(m))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('padding boundaries (55, 56, 63, 64 bytes) differ and are stable', () => {
    const digests = [55, 56, 63, 64, 65].map((n) => toHex(sha256(new Uint8Array(n).fill(0x61))));
    expect(new Set(digests).size).toBe(5);
    // 64 × 'a' known value
    expect(digests[3]).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
  });

  it('seed-counter fast path equals the general hash', () => {
    const seed = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);
    for (const counter of [0, 1, 7, 255, 65536, 0x7fffffff]) {
      const msg = new Uint8Array(36);
      msg.set(seed);
      msg[32] = (counter >>> 24) & 0xff;
      msg[33] = (counter >>> 16) & 0xff;
      msg[34] = (counter >>> 8) & 0xff;
      msg[35] = counter & 0xff;
      const words = new Uint32Array(8);
      sha256SeedCounterWords(seed, counter, words);
      const bytes = new Uint8Array(32);
      words.forEach((w, i) => {
        bytes[i * 4] = w >>> 24;
        bytes[i * 4 + 1] = (w >>> 16) & 255;
        bytes[i * 4 + 2] = (w >>> 8) & 255;
        bytes[i * 4 + 3] = w & 255;
      });
      expect(toHex(bytes)).toBe(toHex(sha256(msg)));
    }
  });

  it('hex round trip and rejects malformed hex', () => {
    expect(toHex(fromHex('00ff10Ab')!)).toBe('00ff10ab');
    expect(fromHex('abc')).toBeNull();
    expect(fromHex('zz')).toBeNull();
  });

  it('does not mutate its input', () => {
    const m = new Uint8Array([1, 2, 3]);
    sha256(m);
    expect(Array.from(m)).toEqual([1, 2, 3]);
  });
});
