import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StaffMe } from '@spades/common';
import { ApiError, api } from '../lib/api';
import { apiUrl } from '../lib/platform';
import { getToken } from '../lib/storage';

/** Console data access (issue #25): every console route lives under /api/admin and is guarded on the server. */

/** `?a=1&b=x` from the defined, non-empty values. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The signed-in staff member: 403 for players (then `error.status === 403`). */
export function useStaffMe() {
  return useQuery({
    queryKey: ['admin', 'me'],
    queryFn: () => api.get<StaffMe>('/api/admin/me'),
    retry: (n, err) => !(err instanceof ApiError && (err.status === 401 || err.status === 403)) && n < 1,
    staleTime: 30_000,
  });
}

export const StaffContext = createContext<StaffMe | null>(null);

/** The console's user (inside the console shell only). */
export function useStaff(): StaffMe {
  const me = useContext(StaffContext);
  if (!me) throw new Error('useStaff outside the console');
  return me;
}

export const isAdmin = (me: StaffMe | null | undefined) => me?.role === 'admin';

/** Downloads a console file (the session token goes in a header, so a plain link would not do). */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const token = getToken();
  const res = await fetch(apiUrl(path), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!res.ok) {
    let message = `Download failed (${res.status})`;
    try {
      const b = (await res.json()) as { message?: unknown };
      if (typeof b.message === 'string') message = b.message;
    } catch {
      /* not JSON */
    }
    throw new ApiError(message, res.status, null);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
