/** mulberry32: a tiny deterministic PRNG for tests, benches and bots. Returns floats in [0, 1). Not for deals. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform integer in [0, n). */
export function randomInt(rng: () => number, n: number): number {
  return Math.floor(rng() * n);
}

/** 32 pseudo-random bytes from an rng (for test/bench deal seeds; production seeds come from a CSPRNG). */
export function randomSeed(rng: () => number): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Math.floor(rng() * 256);
  return out;
}
