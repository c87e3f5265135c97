import { Inject, Injectable, Optional } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PROTOCOL_VERSION,
  type RegistrationMode,
  type ServerInfo,
  type SignInMethod,
  type SsoProviderInfo,
} from '@spades/common';
import { AppConfig } from '../config/config.schema';

/**
 * THE SEAM to the host console's live settings (issue #25, backend/src/settings/): a provider of this token
 * overrides the configured name, description, icon and registration mode. Until the settings service provides
 * it, the server-info comes from the environment (SERVER_NAME, SERVER_DESCRIPTION, SERVER_ICON_URL) and
 * registration is 'open' (the only mode the server enforces today). Wire it once, in the settings module:
 *   { provide: SERVER_INFO_OVERRIDES, useExisting: SettingsService }   (with `serverInfoOverrides()` on it)
 */
export const SERVER_INFO_OVERRIDES = Symbol('SERVER_INFO_OVERRIDES');

export interface ServerInfoOverrides {
  serverInfoOverrides(): Promise<
    Partial<{
      name: string;
      description: string;
      iconUrl: string | null;
      registration: RegistrationMode;
      /** false: the host switched a configured Discord sign-in off (issue #25). */
      discord: boolean;
      /** Issue #26: `false` for an OpenID Connect / GitHub provider the host switched off (absent = offered). */
      sso: Readonly<Record<string, boolean>>;
    }>
  >;
}

/** The backend's package version, read once (backend/package.json sits two levels above src/ and dist/ files). */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

@Injectable()
export class ServerInfoService {
  private readonly version = packageVersion();

  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(SERVER_INFO_OVERRIDES) private readonly overrides?: ServerInfoOverrides,
  ) {}

  async info(): Promise<ServerInfo> {
    const base = this.config.serverInfo;
    const live = (await this.overrides?.serverInfoOverrides()) ?? {};
    // what GET /api/auth/providers offers: configured, and not switched off in the console (issue #25)
    const providers: SsoProviderInfo[] = [];
    if (this.config.discord && live.discord !== false)
      providers.push({ id: 'discord', label: 'Discord', kind: 'discord' });
    for (const p of this.config.sso ?? [])
      if (live.sso?.[p.id] !== false) providers.push({ id: p.id, label: p.label, kind: p.kind });
    const signIn: SignInMethod[] = ['password'];
    for (const kind of ['discord', 'github', 'oidc'] as const)
      if (providers.some((p) => p.kind === kind)) signIn.push(kind);
    return {
      kind: 'spades',
      name: live.name ?? base.name,
      icon: live.iconUrl !== undefined ? live.iconUrl : base.iconUrl,
      description: live.description ?? base.description,
      version: this.version,
      protocolVersion: PROTOCOL_VERSION,
      signIn,
      providers,
      registration: live.registration ?? 'open',
    };
  }
}
