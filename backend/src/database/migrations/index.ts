import { InitPlatform1763800000000 } from './1763800000000-init-platform';
import { Games1763900000000 } from './1763900000000-games';
import { GameEventActions1764000000000 } from './1764000000000-game-event-actions';
import { Ratings1764100000000 } from './1764100000000-ratings';
import { GameHistory1764200000000 } from './1764200000000-game-history';
import { LeanTableEvents1764400000000 } from './1764400000000-lean-table-events';
import { TableOwnership1764500000000 } from './1764500000000-table-ownership';
import { DiscordLoginStates1764600000000 } from './1764600000000-discord-login-states';
import { ReplayShares1764700000000 } from './1764700000000-replay-shares';
import { AccountRoles1764800000000 } from './1764800000000-account-roles';
import { UsernameKey1764900000000 } from './1764900000000-username-key';
import { AuditLog1765000000000 } from './1765000000000-audit-log';
import { Sanctions1765010000000 } from './1765010000000-sanctions';
import { Reports1765020000000 } from './1765020000000-reports';
import { ConsoleRecentTables1765030000000 } from './1765030000000-console-recent-tables';
import { ServerSettings1765040000000 } from './1765040000000-server-settings';
import { PlayerOptions1765100000000 } from './1765100000000-player-options';
import { SsoIdentities1765060000000 } from './1765060000000-sso-identities';
import { AccountDeletion1765070000000 } from './1765070000000-account-deletion';
import { Tournaments1765200000000 } from './1765200000000-tournaments';

/**
 * Every migration, in order. Other modules (games) append their migration classes here; names must carry
 * a timestamp greater than the previous one. Migrations run at boot under a Postgres advisory lock and via
 * `npm run migrate -w backend` (node dist/migrate.js).
 */
export const MIGRATIONS = [
  InitPlatform1763800000000,
  Games1763900000000,
  GameEventActions1764000000000,
  Ratings1764100000000,
  GameHistory1764200000000,
  LeanTableEvents1764400000000,
  TableOwnership1764500000000,
  DiscordLoginStates1764600000000,
  ReplayShares1764700000000,
  AccountRoles1764800000000,
  UsernameKey1764900000000,
  AuditLog1765000000000,
  Sanctions1765010000000,
  Reports1765020000000,
  ConsoleRecentTables1765030000000,
  ServerSettings1765040000000,
  SsoIdentities1765060000000,
  AccountDeletion1765070000000,
  PlayerOptions1765100000000,
  Tournaments1765200000000,
];
