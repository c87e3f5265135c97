import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../config/config.schema';
import { accountConfigOf } from './account.config';

describe('ACCOUNT_NAME_HOLD_DAYS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spades-account-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const days = (v?: string) =>
    accountConfigOf(loadAppConfig({ DATA_DIR: dir, ACCOUNT_NAME_HOLD_DAYS: v })).nameHoldDays;

  it('defaults to 30 days and reads 0–3650', () => {
    expect(days(undefined)).toBe(30);
    expect(days('')).toBe(30);
    expect(days('0')).toBe(0);
    expect(days(' 3650 ')).toBe(3650);
  });

  it('refuses anything else with a clear message', () => {
    for (const bad of ['-1', '3651', '1.5', 'week'])
      expect(() => days(bad)).toThrow('ACCOUNT_NAME_HOLD_DAYS must be an integer between 0 and 3650');
  });
});
