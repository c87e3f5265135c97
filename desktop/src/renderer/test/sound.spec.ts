import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { play, resetAudioForTests, setMuted, VOLUMES } from '../lib/sound';

/** A WebAudio double: records every gain node and what it is connected to. */
class FakeParam {
  value = 1;
  setValueAtTime(v: number) {
    this.value = v;
  }
  exponentialRampToValueAtTime() {}
}
class FakeNode {
  targets: unknown[] = [];
  connect(n: unknown) {
    this.targets.push(n);
    return n;
  }
}
class FakeGain extends FakeNode {
  gain = new FakeParam();
}
const made: FakeAudioContext[] = [];
class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  sampleRate = 8000;
  destination = new FakeNode();
  gains: FakeGain[] = [];
  constructor() {
    made.push(this);
  }
  createGain() {
    const g = new FakeGain();
    this.gains.push(g);
    return g;
  }
  createOscillator() {
    return Object.assign(new FakeNode(), { type: 'sine', frequency: new FakeParam(), start() {}, stop() {} });
  }
  createBuffer(_c: number, len: number) {
    const data = new Float32Array(len);
    return { getChannelData: () => data };
  }
  createBufferSource() {
    return Object.assign(new FakeNode(), { buffer: null, start() {} });
  }
  createBiquadFilter() {
    return Object.assign(new FakeNode(), { type: 'lowpass', frequency: new FakeParam() });
  }
  resume() {
    return Promise.resolve();
  }
}

beforeEach(() => {
  made.length = 0;
  resetAudioForTests();
  setMuted(false);
  vi.stubGlobal('AudioContext', FakeAudioContext);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The gain nodes wired straight to the speakers, i.e. each played sound's volume. */
function outputVolumes(): number[] {
  const ac = made[0];
  return ac.gains.filter((g) => g.targets.includes(ac.destination)).map((g) => g.gain.value);
}

describe('sounds at the spec §9 volumes', () => {
  it('declares card play 0.3, bid 0.5, win 0.5 (and the tournament match call 0.5)', () => {
    expect(VOLUMES).toEqual({ card: 0.3, bid: 0.5, win: 0.5, match: 0.5 });
  });

  it.each([
    ['card', 0.3],
    ['bid', 0.5],
    ['win', 0.5],
    ['match', 0.5],
  ] as const)('%s plays through one output gain of exactly %d', (name, volume) => {
    play(name);
    expect(outputVolumes()).toEqual([volume]);
    // Nothing inside the sound is louder than full scale (the envelopes peak at 1 at most).
    for (const g of made[0].gains) expect(g.gain.value).toBeLessThanOrEqual(1);
  });

  it('plays nothing while muted', () => {
    setMuted(true);
    play('win');
    expect(made.length === 0 || outputVolumes().length === 0).toBe(true);
  });
});
