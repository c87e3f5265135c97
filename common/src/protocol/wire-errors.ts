/**
 * Typed codes a refusal carries besides its text (issue #29): clients react to the code, never to the text.
 */
import { EngineError, type EngineErrorCode } from '../rules/errors';

/** Refusals of a request as such (not of a game rule: those carry an EngineErrorCode). */
export const WireError = {
  /** The body or payload does not match the message's schema (HTTP 400; socket ack `{ ok:false, code }`). */
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  /** A socket event before the socket signed in. */
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  /** A private table that is open: the viewer needs an invitation (HTTP 403; socket ack). */
  PRIVATE_TABLE: 'PRIVATE_TABLE',
  /** A private game that has ended: only its players can see it (HTTP 403; socket ack). */
  PRIVATE_GAME: 'PRIVATE_GAME',
  /** The host removed the user from the table; a new invitation from the host lifts it (HTTP 403; socket ack). */
  REMOVED_FROM_TABLE: 'REMOVED_FROM_TABLE',
} as const;

export type WireErrorCode = (typeof WireError)[keyof typeof WireError];

/** Every code a refusal may carry on the wire, HTTP or socket: one typed list. */
export type ErrorCode = EngineErrorCode | WireErrorCode;

const CODES: ReadonlySet<string> = new Set<string>([...Object.values(EngineError), ...Object.values(WireError)]);

/** True for a code of the list (a server's or a client's guard on untyped input). */
export function isErrorCode(x: unknown): x is ErrorCode {
  return typeof x === 'string' && CODES.has(x);
}

/** The body of every HTTP error: the text to show, and the code to react to when the refusal has one. */
export interface HttpErrorBody {
  message: string;
  code?: ErrorCode;
}
