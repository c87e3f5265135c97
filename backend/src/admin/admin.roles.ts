/**
 * Roles stored on accounts (issue #24): the one place that changes `users.role`, shared by the `npm run admin` CLI,
 * ADMIN_USERS at boot and the one-time setup token. An account is named by its id or its username (exact,
 * case-insensitive) — never by e-mail, which is not verified.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { returnedRows } from '../database/returned-rows';
import type { AccountRole } from '../users/users.service';
import { UUID_RE } from '@spades/common';

/** What runs SQL: a DataSource, an EntityManager or a QueryRunner. */
export interface Sql {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- TypeORM's own signature
}

export const ACCOUNT_ROLES: readonly AccountRole[] = ['user', 'moderator', 'admin'];
/** Roles `grant` gives (revoke returns an account to 'user'). */
export const GRANTABLE_ROLES: readonly AccountRole[] = ['moderator', 'admin'];

export const ADMIN_MESSAGES = {
  unknownAccount: (who: string) => `No account with the id or username "${who}"`,
  badRole: (role: string) => `Unknown role "${role}": grant takes ${GRANTABLE_ROLES.join(' or ')}`,
  setupTokenRequired: 'token is required (the setup token printed in the server log)',
  setupTokenInvalid: 'That setup token is not valid (copy it from the server log, or ask the operator)',
  setupTokenUsed: 'The setup token has already been used',
  setupAdminExists: 'An admin already exists: the setup token is no longer valid',
} as const;

export class AccountNotFoundError extends Error {
  constructor(who: string) {
    super(ADMIN_MESSAGES.unknownAccount(who));
    this.name = 'AccountNotFoundError';
  }
}

export interface RoleHolder {
  id: string;
  username: string;
  role: AccountRole;
}

/** The account named by `who`: an id, or a username compared case-insensitively (never an e-mail). */
export async function findAccount(db: Sql, who: string): Promise<RoleHolder> {
  const w = who.trim();
  const rows: RoleHolder[] = UUID_RE.test(w)
    ? await db.query(`SELECT id, username, role FROM users WHERE id = $1`, [w])
    : await db.query(
        `SELECT id, username, role FROM users WHERE lower(username) = lower($1) ORDER BY created_at LIMIT 2`,
        [w],
      );
  if (rows.length !== 1) throw new AccountNotFoundError(w);
  return rows[0];
}

export interface RoleChange {
  account: RoleHolder;
  /** The role before the change (equal to account.role when nothing changed). */
  before: AccountRole;
}

/** Sets the role of the account named by `who`. Granting admin discards an unused setup token (an admin exists now). */
export async function setRole(db: Sql, who: string, role: AccountRole): Promise<RoleChange> {
  if (!ACCOUNT_ROLES.includes(role)) throw new Error(ADMIN_MESSAGES.badRole(role));
  const acc = await findAccount(db, who);
  if (acc.role !== role) await db.query(`UPDATE users SET role = $2 WHERE id = $1`, [acc.id, role]);
  if (role === 'admin') await discardUnusedSetupToken(db);
  return { account: { ...acc, role }, before: acc.role };
}

/** Accounts with a role other than 'user', admins first. */
export async function listRoles(db: Sql): Promise<RoleHolder[]> {
  return db.query(
    `SELECT id, username, role FROM users WHERE role <> 'user'
      ORDER BY CASE role WHEN 'admin' THEN 0 ELSE 1 END, lower(username)`,
  );
}

export async function adminCount(db: Sql): Promise<number> {
  const [{ n }]: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM users WHERE role = 'admin'`);
  return Number(n);
}

/**
 * ADMIN_USERS at boot: GRANTS admin to the listed account ids (nobody is ever demoted at boot). Returns who was
 * granted now and which ids match no account.
 */
export async function grantAdminIds(
  db: Sql,
  ids: string[],
): Promise<{ granted: RoleHolder[]; already: number; unknown: string[] }> {
  if (!ids.length) return { granted: [], already: 0, unknown: [] };
  const found: RoleHolder[] = await db.query(`SELECT id, username, role FROM users WHERE id = ANY($1::uuid[])`, [ids]);
  const granted = found.filter((u) => u.role !== 'admin');
  if (granted.length) {
    await db.query(`UPDATE users SET role = 'admin' WHERE id = ANY($1::uuid[])`, [granted.map((u) => u.id)]);
    await discardUnusedSetupToken(db);
  }
  const known = new Set(found.map((u) => u.id.toLowerCase()));
  return {
    granted: granted.map((u) => ({ ...u, role: 'admin' })),
    already: found.length - granted.length,
    unknown: ids.filter((id) => !known.has(id.toLowerCase())),
  };
}

// ------------------------------------------------------------------ the one-time setup token

const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const newToken = () => randomBytes(24).toString('base64url');

/** An unredeemed setup token is pointless once an admin exists: it is deleted. */
export async function discardUnusedSetupToken(db: Sql): Promise<void> {
  await db.query(`DELETE FROM admin_setup_token WHERE redeemed_at IS NULL`);
}

export type SetupTokenAtBoot =
  | { kind: 'admin-exists' }
  /** A new token (printed by the caller; only its hash is stored). */
  | { kind: 'issued'; token: string }
  /** An unused token issued earlier (by this or another node): its value is not known any more. */
  | { kind: 'pending'; issuedAt: Date };

/**
 * At boot: when no admin exists, issue a token ONCE (one row shared by every node; the node whose insert wins
 * prints it). A token that was redeemed by an admin who has since been revoked is replaced, so a database without
 * admins always has a way in.
 */
export async function setupTokenAtBoot(db: Sql): Promise<SetupTokenAtBoot> {
  if ((await adminCount(db)) > 0) {
    await discardUnusedSetupToken(db);
    return { kind: 'admin-exists' };
  }
  const token = newToken();
  const inserted: unknown[] = await db.query(
    `INSERT INTO admin_setup_token (id, token_hash) VALUES (1, $1) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [sha256(token)],
  );
  if (inserted.length) return { kind: 'issued', token };
  const replaced = returnedRows<{ id: number }>(
    await db.query(
      `UPDATE admin_setup_token SET token_hash = $1, created_at = now(), redeemed_at = NULL, redeemed_by = NULL
      WHERE id = 1 AND redeemed_at IS NOT NULL RETURNING id`,
      [sha256(token)],
    ),
  );
  if (replaced.length) return { kind: 'issued', token };
  const [row]: { created_at: Date }[] = await db.query(`SELECT created_at FROM admin_setup_token WHERE id = 1`);
  return { kind: 'pending', issuedAt: new Date(row?.created_at ?? Date.now()) };
}

/** `npm run admin -- setup-token`: a new token replacing any earlier one (only while no admin exists). */
export async function reissueSetupToken(db: Sql): Promise<string | null> {
  if ((await adminCount(db)) > 0) return null;
  const token = newToken();
  await db.query(
    `INSERT INTO admin_setup_token (id, token_hash) VALUES (1, $1)
     ON CONFLICT (id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now(), redeemed_at = NULL, redeemed_by = NULL`,
    [sha256(token)],
  );
  return token;
}

export class SetupTokenRefused extends Error {}

/**
 * Redeems the setup token for `userId` (run inside a transaction): the account becomes admin and the token is
 * spent. The hashes are compared in constant time. Throws SetupTokenRefused with the reason otherwise.
 */
export async function redeemSetupToken(db: Sql, token: string, userId: string): Promise<void> {
  const rows: { token_hash: string; redeemed_at: Date | null }[] = await db.query(
    `SELECT token_hash, redeemed_at FROM admin_setup_token WHERE id = 1 FOR UPDATE`,
  );
  const stored = Buffer.from(rows[0]?.token_hash ?? sha256(newToken()), 'hex');
  const given = Buffer.from(sha256(token), 'hex');
  const matches = timingSafeEqual(stored, given) && rows.length === 1;
  if (!matches) throw new SetupTokenRefused(ADMIN_MESSAGES.setupTokenInvalid);
  if (rows[0].redeemed_at) throw new SetupTokenRefused(ADMIN_MESSAGES.setupTokenUsed);
  if ((await adminCount(db)) > 0) {
    await discardUnusedSetupToken(db);
    throw new SetupTokenRefused(ADMIN_MESSAGES.setupAdminExists);
  }
  await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [userId]);
  await db.query(`UPDATE admin_setup_token SET redeemed_at = now(), redeemed_by = $1 WHERE id = 1`, [userId]);
}
