import { ForbiddenException, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { grantAdminIds, redeemSetupToken, setupTokenAtBoot, SetupTokenRefused } from './admin.roles';

/** The command that makes an admin, as printed in the logs. */
export const GRANT_COMMAND = 'npm run admin -- grant <username> admin';

/**
 * At boot (issue #24): ADMIN_USERS account ids are GRANTED admin (nobody is demoted), then, when no admin exists,
 * the one-time setup token is issued and printed at info level (not a warning: a fresh install is not a problem; once
 * per database: later starts only remind). Redeeming it
 * (POST /api/admin/setup) makes the signed-in account admin.
 */
@Injectable()
export class AdminSetupService implements OnApplicationBootstrap {
  private readonly log = new Logger('Admin');

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const ids = this.config.adminUserIds;
    if (ids.length) {
      const r = await grantAdminIds(this.ds, ids);
      const names = r.granted.map((u) => `${u.username} (${u.id})`).join(', ');
      this.log.log(
        `ADMIN_USERS: ${ids.length} account id(s); granted admin now: ${r.granted.length ? names : 'none'}; already admin: ${r.already}. ` +
          `Boot never demotes anyone: use \`npm run admin -- revoke <username>\`.`,
      );
      if (r.unknown.length) this.log.warn(`ADMIN_USERS: no account with the id(s) ${r.unknown.join(', ')}`);
    }
    const setup = await setupTokenAtBoot(this.ds);
    const page = `${this.config.clientUrl}/admin/setup`;
    if (setup.kind === 'issued') {
      this.log.log(
        `No admin account exists. One-time admin setup token: ${setup.token} — sign in with the account that should ` +
          `become admin and open ${page}?token=${setup.token} (or POST /api/admin/setup {"token": "…"}), ` +
          `or run \`${GRANT_COMMAND}\`. The token works once and is shown only now.`,
      );
    } else if (setup.kind === 'pending') {
      this.log.log(
        `No admin account exists. The admin setup token printed at ${setup.issuedAt.toISOString()} is still unused ` +
          `(open ${page}). Lost it? \`npm run admin -- setup-token\` prints a new one, or run \`${GRANT_COMMAND}\`.`,
      );
    }
  }

  /** Redeems the setup token for the signed-in account (403 with the reason when refused). */
  async redeem(userId: string, token: string): Promise<void> {
    try {
      await this.ds.transaction((m) => redeemSetupToken(m, token, userId));
    } catch (e) {
      if (e instanceof SetupTokenRefused) throw new ForbiddenException(e.message);
      throw e;
    }
    this.log.log(`account ${userId} redeemed the admin setup token and is now admin`);
  }
}
