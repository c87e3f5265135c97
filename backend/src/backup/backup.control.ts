import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The credential `npm run backup` presents to a RUNNING server when it cannot open the database itself (the
 * embedded database serves one process): an HMAC of a fixed label under the server's JWT secret. Whoever can read
 * the secret (DATA_DIR/jwt-secret or JWT_SECRET) can already sign an admin's session token, so this gives nothing
 * new; it saves the host from pasting a token.
 */
export const BACKUP_CONTROL_HEADER = 'x-spades-backup-control';

export function backupControlToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('spades-backup-control/v1').digest('base64url');
}

export function isBackupControlToken(jwtSecret: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length > 200) return false;
  const want = Buffer.from(backupControlToken(jwtSecret));
  const got = Buffer.from(presented);
  return got.length === want.length && timingSafeEqual(got, want);
}
