import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';

/**
 * What a client hears about an unexpected error (a storage error, a bug): never its text, only a reference that
 * the log line carries too (issue #24), e.g. `Something went wrong (ref 3f2a9c)`.
 */
export const unexpectedErrorMessage = (ref: string): string => `Something went wrong (ref ${ref})`;

/** A short random correlation id for one unexpected error. */
export function newErrorRef(): string {
  return randomBytes(3).toString('hex');
}

/** Logs an unexpected error with a new correlation id and returns the generic message to send to the client. */
export function reportUnexpected(logger: Logger, context: string, e: unknown): string {
  const ref = newErrorRef();
  logger.error(`[ref ${ref}] ${context}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return unexpectedErrorMessage(ref);
}
