import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { SettingsService } from '../settings/settings.service';
import { APP_PASSPORT, type Authenticator } from './app-passport';
import { GithubStrategy } from './github.strategy';
import { OidcStrategy } from './oidc.strategy';
import { SsoStateStore } from './sso-state.store';

/**
 * One passport strategy per configured provider (`sso:<id>`: OidcStrategy, or GithubStrategy for `github`),
 * registered in the app's passport instance, and the logins in progress they share (SsoStateStore).
 */
@Injectable()
export class SsoStrategies {
  readonly store: SsoStateStore;
  private readonly ids = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    @Inject(APP_PASSPORT) passport: Authenticator,
    ds: DataSource,
    @Optional() private readonly settings?: SettingsService,
  ) {
    this.store = new SsoStateStore(ds);
    for (const p of config.sso ?? []) {
      const strategy = p.kind === 'github' ? new GithubStrategy(p, this.store) : new OidcStrategy(p, this.store);
      passport.use(strategy.name, strategy as unknown as import('passport').Strategy);
      this.ids.add(p.id);
    }
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Discord sign-in is configured and offered (linking Discord from the profile uses the Discord login). */
  discordOffered(): boolean {
    return this.settings ? this.settings.discordOffered() : !!this.config.discord;
  }

  /** Configured and not switched off by the host (console setting `signIns.sso.<id>`, live; absent = offered). */
  offered(id: string): boolean {
    if (!this.ids.has(id)) return false;
    const signIns = this.settings?.get().signIns as { sso?: Record<string, boolean> } | undefined;
    return signIns?.sso?.[id] !== false;
  }
}
