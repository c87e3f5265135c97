import { COIN_CORRECTION_MAX, SANCTION_MAX_MINUTES, STAFF_REASON_MAX } from '@spades/common';

/** Every refusal of the players console and of sanctions, in one place (HTTP `{ message }`). */
export const MODERATION_MESSAGES = {
  reasonRequired: `A reason of 1–${STAFF_REASON_MAX} characters is required`,
  badKind: 'kind must be warn, mute, ban or rename',
  badMinutes: `minutes must be a whole number from 1 to ${SANCTION_MAX_MINUTES}, or null for good`,
  badScope: "scope must be 'all' or 'lobby'",
  newUsernameRequired: 'newUsername is required for a rename',
  sameUsername: 'That is already the player’s name',
  playerNotFound: 'Player not found',
  sanctionNotFound: 'Sanction not found',
  notLiftable: 'Only mutes and bans can be lifted',
  notActive: 'That sanction is no longer active',
  notYourself: 'You cannot do that to your own account',
  staffTarget: 'Only an admin can sanction a moderator or an admin',
  badQuery: 'q must be 1–100 characters',
  badLimit: 'limit must be a whole number from 1 to 50',
  badDirection: "direction must be 'grant' or 'deduct'",
  badAmount: `amount must be a whole number from 1 to ${COIN_CORRECTION_MAX}`,
  deductBelowZero: (balance: string, amount: number) =>
    `Cannot deduct ${amount} coins: the player holds ${balance} (a balance never goes below zero)`,
  badRole: "role must be 'user', 'moderator' or 'admin'",
  lastAdmin: 'Cannot revoke the last admin',
} as const;
