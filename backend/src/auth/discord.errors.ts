/**
 * The Discord login's client kinds and refusals, apart from the service so the state store (discord-state.store.ts)
 * can throw them without importing the service (which imports the SSO accounts: that made an import circle).
 */

/** Who started a login: the web client, or the desktop app (`?client=desktop`, back through spades://). */
export type DiscordClient = 'web' | 'desktop';

/** `?error=` codes of a failed callback (the client treats any of them as "no token"). */
export type DiscordErrorCode =
  | 'invalid_state'
  | 'state_mismatch'
  | 'discord_denied'
  | 'no_code'
  | 'discord_failed'
  | 'account_failed'
  /** Issue #25: the account is banned (`?message=` says why and until when). */
  | 'banned'
  /** Issue #25: a new account refused by the host's registration mode (closed, or invite codes only; `?message=`). */
  | 'registration_refused'
  /** Issue #26 (linking from the profile): this Discord user is linked to another account. */
  | 'identity_in_use'
  /** Issue #26: the account already has another Discord user linked. */
  | 'already_linked'
  /**
   * Issue #26: a new Discord user's verified e-mail is an account's: nothing was created, the player signs in to
   * that account and links Discord from the profile (`?message=Discord`, as the OIDC / GitHub sign-ins).
   */
  | 'link_required';

/**
 * Why a Discord callback was refused: the `?error=` code sent to the client, the reason logged, and what the client
 * may be told (`?message=`, e.g. the provider's label for `link_required`).
 */
export class DiscordLoginFailed extends Error {
  constructor(
    readonly code: DiscordErrorCode,
    readonly reason: string,
    readonly clientMessage?: string,
  ) {
    super(reason);
  }
}
