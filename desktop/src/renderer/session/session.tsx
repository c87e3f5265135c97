import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, errorText, setUnauthorizedHandler } from '../lib/api';
import { normalizeUser, type User } from '../lib/types';
import { clearSession, clearToken, getStoredUser, getToken, setStoredUser, setToken } from '../lib/storage';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface SessionValue {
  status: SessionStatus;
  user: User | null;
  token: string | null;
  login(email: string, password: string): Promise<void>;
  /** `inviteCode`: while the host's registration is by invitation (issue #25). */
  register(username: string, email: string, password: string, inviteCode?: string): Promise<void>;
  completeExternalLogin(token: string): Promise<void>;
  logout(): void;
  refreshProfile(): Promise<void>;
  updateProfile(patch: { avatar?: string | null; username?: string }): Promise<User>;
  setUser(u: User): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Reads the user from `{ user }` or a bare user object. */
export function userFromResponse(body: unknown): User | null {
  if (body && typeof body === 'object' && 'user' in body) return normalizeUser((body as { user: unknown }).user);
  return normalizeUser(body);
}

/** Spec §5: a sign-in/registration response is valid only with both a token and a user. */
export function parseAuthResponse(body: unknown): { token: string; user: User } {
  const b = (body && typeof body === 'object' ? body : {}) as { token?: unknown; user?: unknown };
  const user = normalizeUser(b.user);
  if (typeof b.token !== 'string' || !b.token || !user) throw new Error('Invalid response from server');
  return { token: b.token, user };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [token, setTok] = useState<string | null>(() => getToken());
  const [user, setUserState] = useState<User | null>(() => (getToken() ? getStoredUser<User>() : null));
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() ? 'loading' : 'anonymous'));
  const navRef = useRef(navigate);
  navRef.current = navigate;

  const setUser = useCallback((u: User) => {
    setUserState(u);
    setStoredUser(u);
  }, []);

  const signOutLocal = useCallback(() => {
    clearSession();
    setTok(null);
    setUserState(null);
    setStatus('anonymous');
  }, []);

  // Clarification 6: any HTTP 401 clears the stored session and goes to /login.
  useEffect(() => {
    setUnauthorizedHandler(() => {
      signOutLocal();
      navRef.current('/login', { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, [signOutLocal]);

  const fetchProfile = useCallback(async (): Promise<User> => {
    const body = await api.get<unknown>('/api/auth/profile');
    const u = userFromResponse(body);
    if (!u) throw new Error('Invalid response from server');
    return u;
  }, []);

  // §4: at start, a stored token → fetch the profile; a failed/invalid fetch removes the token.
  useEffect(() => {
    if (!getToken()) return;
    let cancelled = false;
    fetchProfile()
      .then((u) => {
        if (cancelled) return;
        setUser(u);
        setStatus('authenticated');
      })
      .catch(() => {
        if (cancelled) return;
        clearToken();
        setTok(null);
        setUserState(null);
        setStatus('anonymous');
      });
    return () => {
      cancelled = true;
    };
  }, [fetchProfile, setUser]);

  const establish = useCallback(
    (t: string, u: User) => {
      setToken(t);
      setTok(t);
      setUser(u);
      setStatus('authenticated');
    },
    [setUser],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      let body: unknown;
      try {
        body = await api.post<unknown>('/api/auth/login', { email, password }, { skipAuthRedirect: true });
      } catch (e) {
        throw new Error(errorText(e, 'Login failed. Please check your credentials and try again.'));
      }
      const { token: t, user: u } = parseAuthResponse(body);
      establish(t, u);
    },
    [establish],
  );

  const register = useCallback(
    async (username: string, email: string, password: string, inviteCode?: string) => {
      let body: unknown;
      try {
        const fields = inviteCode ? { username, email, password, inviteCode } : { username, email, password };
        body = await api.post<unknown>('/api/auth/register', fields, { skipAuthRedirect: true });
      } catch (e) {
        throw new Error(errorText(e, 'Registration failed. Please try again.'));
      }
      const { token: t, user: u } = parseAuthResponse(body);
      establish(t, u);
    },
    [establish],
  );

  const completeExternalLogin = useCallback(
    async (t: string) => {
      setToken(t);
      try {
        const u = await fetchProfile();
        establish(t, u);
      } catch (e) {
        clearToken();
        setTok(null);
        setStatus('anonymous');
        throw e;
      }
    },
    [establish, fetchProfile],
  );

  const refreshProfile = useCallback(async () => {
    if (!getToken()) return;
    try {
      setUser(await fetchProfile());
    } catch (e) {
      if (!(e instanceof ApiError)) return;
    }
  }, [fetchProfile, setUser]);

  const updateProfile = useCallback(
    async (patch: { avatar?: string | null; username?: string }) => {
      if (!getToken()) throw new Error('No authentication token found');
      const current = user;
      let body: unknown;
      try {
        body = await api.put<unknown>('/api/auth/profile', {
          username: patch.username ?? current?.username,
          avatar: patch.avatar !== undefined ? patch.avatar : (current?.avatar ?? null),
        });
      } catch (e) {
        throw new Error(errorText(e, 'Profile update failed. Please try again.'));
      }
      const u = userFromResponse(body);
      if (!u) throw new Error('Profile update failed. Please try again.');
      setUser(u);
      return u;
    },
    [user, setUser],
  );

  const logout = useCallback(() => {
    signOutLocal();
    navRef.current('/login', { replace: true });
  }, [signOutLocal]);

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user,
      token,
      login,
      register,
      completeExternalLogin,
      logout,
      refreshProfile,
      updateProfile,
      setUser,
    }),
    [status, user, token, login, register, completeExternalLogin, logout, refreshProfile, updateProfile, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}

/** For tests and stories: a fixed session value. */
export const SessionContextForTests = SessionContext;
