import { describe, expect, it } from 'vitest';
import { checkSettingsPatch, DEFAULT_SERVER_SETTINGS, publicSettings } from './settings';
import { SSO_PROVIDER_ID, ssoErrorText, SSO_ERROR_TEXTS } from './identities';

describe('SSO providers (issue #26)', () => {
  it('provider ids are 2-20 lower-case letters and digits, starting with a letter', () => {
    expect(['google', 'keycloak', 'gl2', 'github'].every((id) => SSO_PROVIDER_ID.test(id))).toBe(true);
    expect(['G', 'g', '2fa', 'my-idp', 'a'.repeat(21), ''].some((id) => SSO_PROVIDER_ID.test(id))).toBe(false);
  });

  it('every error code has a text; unknown codes get a generic one', () => {
    expect(ssoErrorText('link_required')).toMatch(/Sign in to that account first, then link/);
    expect(ssoErrorText('whatever')).toBe('The sign-in failed. Please try again.');
    expect(ssoErrorText(null)).toBeNull();
    expect(Object.values(SSO_ERROR_TEXTS).every((t) => t.length > 10)).toBe(true);
  });

  it('the sign-ins setting takes providers by id, and refuses bad ids or values', () => {
    expect(checkSettingsPatch({ signIns: { discord: true, sso: { google: false } } })).toEqual({
      ok: true,
      patch: { signIns: { discord: true, sso: { google: false } } },
    });
    expect(checkSettingsPatch({ signIns: { discord: true, sso: { Google: false } } }).ok).toBe(false);
    expect(checkSettingsPatch({ signIns: { discord: true, sso: { google: 'no' } } }).ok).toBe(false);
    expect(checkSettingsPatch({ signIns: { discord: true, sso: [] } }).ok).toBe(false);
  });

  it('the public settings offer each configured provider unless switched off', () => {
    const s = { ...DEFAULT_SERVER_SETTINGS, signIns: { discord: true, sso: { google: false, stale: true } } };
    const identity = { name: 'S', description: '', iconUrl: null };
    expect(publicSettings(s, { discord: false, sso: { google: true, github: true } }, identity).signIns).toEqual({
      discord: false,
      sso: { google: false, github: true },
    });
    expect(publicSettings(s, { discord: true }, identity).signIns).toEqual({ discord: true });
  });
});
