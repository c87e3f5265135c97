/**
 * `npm run admin -- grant <username|id> <admin|moderator>`, `revoke <username|id>`, `list`, `setup-token`
 * (issue #24): roles stored on accounts, changed against the server's own database — DATABASE_URL (+ DATABASE_SCHEMA)
 * or the embedded database in DATA_DIR. The embedded database serves one process: while the server runs on it,
 * the command refuses with a clear message (stop the server first, or redeem the setup token from its log).
 * A change takes effect at once: admin routes read the stored role on every request, no new sign-in is needed.
 */
import { AppConfig, ConfigValidationError, loadAppConfig } from '../config/config.schema';
import { openDataSource } from '../database/data-source';
import { DataDirLockedError } from '../database/embedded-postgres';
import type { AccountRole } from '../users/users.service';
import {
  AccountNotFoundError,
  ADMIN_MESSAGES,
  GRANTABLE_ROLES,
  listRoles,
  reissueSetupToken,
  setRole,
} from './admin.roles';

export const ADMIN_CLI_USAGE = `Usage: npm run admin -- <command>
  grant <username|id> <admin|moderator>   give an account a role
  revoke <username|id>                    make an account a plain user again
  list                                    accounts with a role
  setup-token                             print a new one-time admin setup token (only while no admin exists)
Uses the server's database: DATABASE_URL (and DATABASE_SCHEMA), or the embedded database in DATA_DIR
(stop the server first: the embedded database serves one process at a time).`;

export const embeddedBusyMessage = (dataDir: string, pid: number) =>
  `The embedded database in ${dataDir} is in use by the running server (pid ${pid}); it serves one process at a time. ` +
  'Stop the server, run this command, then start the server again. (While no admin exists you can instead redeem ' +
  'the setup token printed in the server log at /admin/setup.)';

export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

type Command =
  | { cmd: 'grant'; who: string; role: AccountRole }
  | { cmd: 'revoke'; who: string }
  | { cmd: 'list' }
  | { cmd: 'setup-token' };

/** The command line, or a usage error message. */
export function parseAdminArgs(argv: string[]): Command | string {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'grant':
      if (rest.length !== 2) return 'grant takes an account and a role: grant <username|id> <admin|moderator>';
      if (!GRANTABLE_ROLES.includes(rest[1] as AccountRole)) return ADMIN_MESSAGES.badRole(rest[1]);
      return { cmd, who: rest[0], role: rest[1] as AccountRole };
    case 'revoke':
      if (rest.length !== 1) return 'revoke takes one account: revoke <username|id>';
      return { cmd, who: rest[0] };
    case 'list':
    case 'setup-token':
      if (rest.length) return `${cmd} takes no arguments`;
      return { cmd };
    default:
      return cmd === undefined || cmd === 'help' || cmd === '--help' ? '' : `Unknown command "${cmd}"`;
  }
}

/** Runs one command; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function runAdminCli(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput = console): Promise<number> {
  const parsed = parseAdminArgs(argv);
  if (typeof parsed === 'string') {
    if (parsed) out.error(parsed);
    out.error(ADMIN_CLI_USAGE);
    return parsed ? 2 : 0;
  }
  let config: AppConfig;
  try {
    config = loadAppConfig(env);
  } catch (e) {
    out.error(e instanceof ConfigValidationError ? e.message : String(e));
    return 1;
  }
  let ds;
  try {
    ds = await openDataSource(config, { logging: ['error'] });
  } catch (e) {
    if (e instanceof DataDirLockedError) out.error(embeddedBusyMessage(config.dataDir, e.pid));
    else out.error(`Could not open the database: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  try {
    if (parsed.cmd === 'grant' || parsed.cmd === 'revoke') {
      const role: AccountRole = parsed.cmd === 'grant' ? parsed.role : 'user';
      const { account, before } = await setRole(ds, parsed.who, role);
      const who = `${account.username} (${account.id})`;
      out.log(
        before === role
          ? `${who} is already ${role}.`
          : `${who}: ${before} → ${role}. Takes effect at once (no new sign-in needed).`,
      );
    } else if (parsed.cmd === 'list') {
      const rows = await listRoles(ds);
      if (!rows.length) out.log('No account has a role: everybody is a user.');
      for (const r of rows) out.log(`${r.role.padEnd(9)}  ${r.username.padEnd(20)}  ${r.id}`);
    } else {
      const token = await reissueSetupToken(ds);
      if (token)
        out.log(
          `One-time admin setup token: ${token}\nSign in with the account that should become admin and open ${config.clientUrl}/admin/setup?token=${token}`,
        );
      else {
        out.error('An admin exists already: no setup token is issued. Use `npm run admin -- grant <username> admin`.');
        return 1;
      }
    }
    return 0;
  } catch (e) {
    out.error(e instanceof AccountNotFoundError ? e.message : `Failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await ds.destroy();
  }
}
