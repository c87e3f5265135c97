/** Browser storage keys of spec §3: sessionToken (also token), userData, welcomeModalDismissed. */
export const KEYS = {
  sessionToken: 'sessionToken',
  token: 'token',
  userData: 'userData',
  welcomeModalDismissed: 'welcomeModalDismissed',
  muted: 'soundMuted',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * The desktop app keeps each server's session in the main process, encrypted (issue #30): there the token never
 * touches localStorage. Undefined on the web (and with bridges that predate it).
 */
function desktopSession(): { get(): string | null; set(token: string | null): void } | undefined {
  return safe(() => (typeof window !== 'undefined' ? window.desktop?.session : undefined), undefined);
}

export function getToken(): string | null {
  const d = desktopSession();
  if (d) return safe(() => d.get(), null);
  return safe(() => localStorage.getItem(KEYS.sessionToken) ?? localStorage.getItem(KEYS.token), null);
}

export function setToken(token: string): void {
  const d = desktopSession();
  if (d) return safe(() => d.set(token), undefined);
  safe(() => {
    localStorage.setItem(KEYS.sessionToken, token);
    localStorage.setItem(KEYS.token, token);
  }, undefined);
}

export function clearToken(): void {
  const d = desktopSession();
  if (d) return safe(() => d.set(null), undefined);
  safe(() => {
    localStorage.removeItem(KEYS.sessionToken);
    localStorage.removeItem(KEYS.token);
  }, undefined);
}

export function getStoredUser<T>(): T | null {
  return safe(() => {
    const raw = localStorage.getItem(KEYS.userData);
    return raw ? (JSON.parse(raw) as T) : null;
  }, null);
}

export function setStoredUser(user: unknown): void {
  safe(() => localStorage.setItem(KEYS.userData, JSON.stringify(user)), undefined);
}

export function clearSession(): void {
  clearToken();
  safe(() => localStorage.removeItem(KEYS.userData), undefined);
}

export function isWelcomeDismissed(): boolean {
  return safe(() => localStorage.getItem(KEYS.welcomeModalDismissed) === 'true', false);
}

export function setWelcomeDismissed(): void {
  safe(() => localStorage.setItem(KEYS.welcomeModalDismissed, 'true'), undefined);
}

export function getFlag(key: string): boolean {
  return safe(() => localStorage.getItem(key) === 'true', false);
}
export function setFlag(key: string, v: boolean): void {
  safe(() => localStorage.setItem(key, v ? 'true' : 'false'), undefined);
}
