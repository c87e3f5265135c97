/**
 * Sounds generated with WebAudio (no files shipped). Spec §9 volumes: card play 0.3, bid and win 0.5.
 */
import { getFlag, setFlag, KEYS } from './storage';

export const VOLUMES = { card: 0.3, bid: 0.5, win: 0.5 } as const;
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
  const AC = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  return ctx;
}

function tone(ac: AudioContext, freq: number, start: number, dur: number, vol: number, type: OscillatorType): void {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, vol), start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(gain).connect(ac.destination);
  osc.start(start);
  osc.stop(start + dur + 0.02);
}

function noiseBurst(ac: AudioContext, start: number, dur: number, vol: number): void {
  const len = Math.floor(ac.sampleRate * dur);
  const buf = ac.createBuffer(1, len, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 3);
  const src = ac.createBufferSource();
  src.buffer = buf;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  const gain = ac.createGain();
  gain.gain.value = vol;
  src.connect(filter).connect(gain).connect(ac.destination);
  src.start(start);
}

export function play(name: SoundName): void {
  if (muted) return;
  const ac = audio();
  if (!ac) return;
  const t = ac.currentTime + 0.005;
  const v = VOLUMES[name];
  try {
    if (name === 'card') noiseBurst(ac, t, 0.09, v);
    else if (name === 'bid') tone(ac, 660, t, 0.16, v * 0.6, 'sine');
    else {
      tone(ac, 523.25, t, 0.18, v * 0.5, 'triangle');
      tone(ac, 659.25, t + 0.09, 0.18, v * 0.5, 'triangle');
      tone(ac, 783.99, t + 0.18, 0.3, v * 0.5, 'triangle');
    }
  } catch {
    /* audio is best effort */
  }
}
