import { AppConfig } from '../config/config.schema';

/**
 * Account deletion settings (issue #26), from the validated AppConfig:
 * ACCOUNT_NAME_HOLD_DAYS = days a deleted account's old name stays reserved (0–3650, default 30; 0 = free at once).
 */
export interface AccountConfig {
  nameHoldDays: number;
}

export const ACCOUNT_CONFIG = Symbol('ACCOUNT_CONFIG');

export const accountConfigOf = (c: AppConfig): AccountConfig => ({ nameHoldDays: c.accountNameHoldDays });
