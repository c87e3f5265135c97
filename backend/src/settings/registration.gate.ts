import type { EntityManager } from 'typeorm';

/**
 * What account creation asks the host's settings (issue #25), behind a token so that the users module needs no
 * import of the settings module (provided by SettingsModule as InviteCodesService).
 */
export const REGISTRATION_GATE = Symbol('REGISTRATION_GATE');

export interface RegistrationGate {
  /** Inside the transaction that creates the account: 403 when the registration mode refuses it; counts a code's use. */
  admit(m: EntityManager, inviteCode: unknown): Promise<void>;
  /** The coins a new account gets (the host's `startingCoins`). */
  startingCoins(): number;
}
