import { isErrorCode, type ErrorCode } from '@spades/common';
import { apiUrl } from './platform';
import { getToken } from './storage';

/**
 * An HTTP error with the server's `{ message }` (or `{ error }`) text and, when the refusal has one, its typed
 * `code` (`HttpErrorBody`): the code is what to react to, the message what to show.
 */
export class ApiError extends Error {
  readonly code: ErrorCode | undefined;
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = codeOf(body);
  }
}

/** The typed code of an error body, if it carries one of the wire's list. */
export function codeOf(body: unknown): ErrorCode | undefined {
  const c = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
  return isErrorCode(c) ? c : undefined;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** Clarification 6: any HTTP 401 clears the session and goes to /login. The session provider registers this. */
export function setUnauthorizedHandler(h: UnauthorizedHandler | null): void {
  onUnauthorized = h;
}

/** The session ended outside HTTP (the socket's `session_expired`, issue #24): handled like a 401. */
export function sessionEnded(): void {
  onUnauthorized?.();
}

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string' && b.message) return b.message;
    if (Array.isArray(b.message) && b.message.length) return b.message.map(String).join(', ');
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  return null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Auth requests (login/register) must not trigger the global 401 redirect: their 401 is "wrong password". */
  skipAuthRedirect?: boolean;
  signal?: AbortSignal;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(apiUrl(path), {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    credentials: 'include',
    signal: opts.signal,
  });
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!res.ok) {
    if (res.status === 401 && !opts.skipAuthRedirect) onUnauthorized?.();
    throw new ApiError(messageOf(body) ?? `Request failed (${res.status})`, res.status, body);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }),
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body: body ?? {} }),
  del: <T>(path: string) => request<T>(path, { method: 'DELETE' }),
};

/** What a refused request says: the text to show and the typed code to react to (if any). */
export interface Refusal {
  message: string;
  code?: ErrorCode;
}

/** The refusal of an error: `errorText` for the message, the body's code. */
export function refusalOf(err: unknown, fallback: string): Refusal {
  const message = errorText(err, fallback);
  return err instanceof ApiError && err.code !== undefined ? { message, code: err.code } : { message };
}

/** Server message if any, else the error's message, else the fallback (spec §8 chains). */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message || fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
