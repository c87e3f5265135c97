/**
 * The player's options (issue #31) on the client: stored on the server per account (GET/PUT
 * /api/users/me/options, common's PlayerOptions), cached in localStorage so a reload applies them before the
 * server answers, and applied to the document: `four-colour`, `cards-large` and `reduce-motion` classes on <html>
 * (options.css) and the sound volume (lib/sound). Both clients (web and desktop) run this same code.
 */
import { useEffect, useSyncExternalStore } from 'react';
import {
  DEFAULT_PLAYER_OPTIONS,
  normalizePlayerOptions,
  PLAYER_OPTIONS_PATH,
  type PlayerOptions,
  type PlayerOptionsInput,
} from '@spades/common';
import { api } from './api';
import { setSoundVolume } from './sound';
import { getToken } from './storage';

const CACHE_KEY = 'playerOptions';

function readCache(): PlayerOptions {
  try {
    return normalizePlayerOptions(JSON.parse(localStorage.getItem(CACHE_KEY) ?? 'null'));
  } catch {
    return { ...DEFAULT_PLAYER_OPTIONS };
  }
}

let current: PlayerOptions = readCache();
let loadedFor: string | null = null;
const listeners = new Set<() => void>();

/** Applies options to the document (classes on <html>) and to the sounds. */
export function applyOptions(o: PlayerOptions): void {
  if (typeof document !== 'undefined') {
    const root = document.documentElement.classList;
    root.toggle('four-colour', o.fourColourDeck);
    root.toggle('cards-large', o.cardSize === 'large');
    root.toggle('reduce-motion', o.reducedMotion);
  }
  setSoundVolume(o.soundVolume);
}

function set(next: PlayerOptions): void {
  current = next;
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(next));
  } catch {
    /* storage is best effort */
  }
  applyOptions(next);
  listeners.forEach((l) => l());
}

export function getOptions(): PlayerOptions {
  return current;
}

/** Loads the signed-in player's options from the server (once per session token; `force` reloads). */
export async function loadOptions(force = false): Promise<PlayerOptions> {
  const token = getToken();
  if (!token || (!force && loadedFor === token)) return current;
  loadedFor = token;
  try {
    set(normalizePlayerOptions(await api.get<unknown>(PLAYER_OPTIONS_PATH)));
  } catch {
    loadedFor = null; // try again next time; the cached options stay applied
  }
  return current;
}

/** Changes options at once (optimistic) and stores them on the server; on refusal the server's copy comes back. */
export async function updateOptions(patch: PlayerOptionsInput): Promise<PlayerOptions> {
  const before = current;
  set({ ...current, ...patch });
  if (!getToken()) return current;
  try {
    set(normalizePlayerOptions(await api.put<unknown>(PLAYER_OPTIONS_PATH, patch)));
  } catch (e) {
    set(before);
    throw e;
  }
  return current;
}

let pending: PlayerOptionsInput = {};
let pendingTimer: ReturnType<typeof setTimeout> | null = null;

/** Like updateOptions, but the server is told once the value stops changing (a slider being dragged). */
export function updateOptionsSoon(patch: PlayerOptionsInput, onError?: (e: unknown) => void): void {
  set({ ...current, ...patch });
  pending = { ...pending, ...patch };
  if (pendingTimer) clearTimeout(pendingTimer);
  pendingTimer = setTimeout(() => {
    const p = pending;
    pending = {};
    pendingTimer = null;
    void updateOptions(p).catch((e) => onError?.(e));
  }, 400);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The current options (re-renders on change); loads them from the server once when signed in. */
export function usePlayerOptions(): PlayerOptions {
  const o = useSyncExternalStore(subscribe, getOptions, getOptions);
  useEffect(() => {
    void loadOptions();
  }, []);
  return o;
}

/** For tests: forget the loaded state and the cache. */
export function resetOptionsForTests(): void {
  loadedFor = null;
  try {
    localStorage.removeItem(CACHE_KEY);
  } catch {
    /* ignore */
  }
  current = { ...DEFAULT_PLAYER_OPTIONS };
  applyOptions(current);
}

applyOptions(current);
