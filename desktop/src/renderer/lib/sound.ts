/**
 * Sounds generated with WebAudio (no files shipped). Spec §9 volumes: card play 0.3, bid and win 0.5; the tournament
 * match-ready call (issue #27) at the notification volume of bid and win, 0.5.
 */
import { getFlag, setFlag, KEYS } from './storage';

export const VOLUMES = { card: 0.3, bid: 0.5, win: 0.5, match: 0.5 } as const;
export type SoundName = keyof typeof VOLUMES;

let ctx: AudioContext | null = null;
let muted = getFlag(KEYS.muted);
const listeners = new Set<(m: boolean) => void>();

export function isMuted(): boolean {
  return muted;
}
export function setMuted(m: boolean): void {
  muted = m;
  setFlag(KEYS.muted, m);
  listeners.forEach((l) => l(m));
}
export function onMutedChange(l: (m: boolean) => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

function audio(): AudioContext | null {
  if (typeof window === 'undefined') return null;
  const AC =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  return ctx;
}

/** One note shaped 0 → 1 → 0 into `out` (the sound's volume node). */
function tone(ac: AudioContext, out: AudioNode, freq: number, start: number, dur: number, type: OscillatorType): void {
  const osc = ac.createOscillator();
  const env = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(1, start + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(env).connect(out);
  osc.start(start);
  osc.stop(start + dur + 0.02);
}

/** A short filtered noise burst (a card landing on felt), peak amplitude 1, into `out`. */
function noiseBurst(ac: AudioContext, out: AudioNode, start: number, dur: number): void {
  const len = Math.floor(ac.sampleRate * dur);
  const buf = ac.createBuffer(1, len, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 3);
  const src = ac.createBufferSource();
  src.buffer = buf;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  src.connect(filter).connect(out);
  src.start(start);
}

/**
 * Plays a sound at its §9 volume: every sound goes through one gain node whose value is exactly
 * VOLUMES[name] (card 0.3, bid 0.5, win 0.5); the notes inside are shaped at full scale.
 */
/** Issue #31: the player's sound volume option (0–100; 100 = the §9 volumes), a factor on every sound. */
let master = 1;
export function setSoundVolume(percent: number): void {
  master = Math.max(0, Math.min(100, percent)) / 100;
}

export function play(name: SoundName): void {
  if (muted || master === 0) return;
  const ac = audio();
  if (!ac) return;
  const t = ac.currentTime + 0.005;
  try {
    const volume = ac.createGain();
    volume.gain.value = VOLUMES[name] * master;
    volume.connect(ac.destination);
    if (name === 'card') noiseBurst(ac, volume, t, 0.09);
    else if (name === 'bid') tone(ac, volume, 660, t, 0.16, 'sine');
    else if (name === 'match') {
      // Match ready: a call heard from another tab, two high notes twice (not the win's arpeggio).
      for (const at of [0, 0.36]) {
        tone(ac, volume, 880, t + at, 0.12, 'square');
        tone(ac, volume, 1174.66, t + at + 0.14, 0.16, 'square');
      }
    } else {
      // Win: a rising arpeggio, one note after another so they do not add up above the volume.
      tone(ac, volume, 523.25, t, 0.12, 'triangle');
      tone(ac, volume, 659.25, t + 0.12, 0.12, 'triangle');
      tone(ac, volume, 783.99, t + 0.24, 0.3, 'triangle');
    }
  } catch {
    /* audio is best effort */
  }
}

/** For tests: forget the AudioContext so the next sound creates a new one. */
export function resetAudioForTests(): void {
  ctx = null;
}
