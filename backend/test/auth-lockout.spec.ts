// Issue #24 ("Also seen"): the login lockout of an account is counted per (account, address), so wrong passwords
// from one address lock that address out of the account but never the owner elsewhere. Real app, real HTTP; the
// client address comes from X-Forwarded-For (TRUST_PROXY=loopback), as behind the reverse proxy.
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

describe('login lockout per account and address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the defaults: 20 failures per account and address, 100 per address
    t = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const login = (from: string, email: string, password: string) =>
    api<{ message?: string; token?: string }>(t.url, 'POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': from },
    });

  it('20 failures from address A lock A out of the account; the owner still logs in from B; A may try other accounts', async () => {
    const owner = await registerUser(t.url);
    const A = '203.0.113.7';
    const B = '198.51.100.23';
    for (let i = 0; i < 20; i++) expect((await login(A, owner.email, `wrong-password-${i}`)).status).toBe(401);

    const lockedA = await login(A, owner.email, owner.password);
    expect(lockedA.status).toBe(429);
    expect(lockedA.body.message).toMatch(/Too many failed login attempts/);
    // the e-mail's case does not open a second counter
    expect((await login(A, owner.email.toUpperCase(), owner.password)).status).toBe(429);

    const fromB = await login(B, owner.email, owner.password);
    expect(fromB.status).toBe(200);
    expect(fromB.body.token).toEqual(expect.any(String));
    // B's success does not clear A's lock
    expect((await login(A, owner.email, owner.password)).status).toBe(429);

    // A is below its per-address limit (100): another account logs in from A
    const other = await registerUser(t.url);
    expect((await login(A, other.email, other.password)).status).toBe(200);
  });
});
