/**
 * Where to go after signing in (issue #12: an invite link opened while signed out signs in first, then seats the
 * player). Kept in sessionStorage (survives the Discord round trip in the same window); only in-app paths.
 */
const KEY = 'spades.returnTo';

export function isSafeReturnPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.startsWith('/login') &&
    !path.startsWith('/register') &&
    !path.startsWith('/auth/') &&
    path.length <= 500
  );
}

export function rememberReturnTo(path: string): void {
  if (!isSafeReturnPath(path) || path === '/') return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    /* storage unavailable */
  }
}

/** The remembered path, else '/'. It stays until the page is reached (clearReturnTo), so a re-render cannot lose it. */
export function takeReturnTo(): string {
  try {
    const p = sessionStorage.getItem(KEY);
    return isSafeReturnPath(p) ? p : '/';
  } catch {
    return '/';
  }
}

/** The remembered page was reached (or is no longer wanted). */
export function clearReturnTo(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* storage unavailable */
  }
}
