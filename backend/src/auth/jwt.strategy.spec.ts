/** sessionKey: the session-token secret as one KeyObject — same tokens as the string secret, no key parsing per token. */
import { KeyObject } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import { sessionKey } from './jwt.strategy';

describe('sessionKey', () => {
  const secret = 's'.repeat(40) + 'é'; // UTF-8 bytes, as jsonwebtoken reads a string secret

  it('is one KeyObject per secret', () => {
    expect(sessionKey(secret)).toBeInstanceOf(KeyObject);
    expect(sessionKey(secret).type).toBe('secret');
    expect(sessionKey(secret)).toBe(sessionKey(secret));
    expect(sessionKey(`${secret}x`)).not.toBe(sessionKey(secret));
  });

  it('signs and verifies the same HS256 tokens as the string secret', () => {
    const payload = { sub: 'u-1', iat: 1_700_000_000 };
    const byString = jwt.sign(payload, secret, { algorithm: 'HS256' });
    expect(jwt.sign(payload, sessionKey(secret), { algorithm: 'HS256' })).toBe(byString);
    expect(jwt.verify(byString, sessionKey(secret), { algorithms: ['HS256'], ignoreExpiration: true })).toMatchObject({
      sub: 'u-1',
    });
    // another secret, another algorithm: refused as before
    expect(() => jwt.verify(byString, sessionKey(`${secret}x`), { algorithms: ['HS256'] })).toThrow(
      /invalid signature/,
    );
    const hs512 = jwt.sign(payload, secret, { algorithm: 'HS512' });
    expect(() => jwt.verify(hs512, sessionKey(secret), { algorithms: ['HS256'] })).toThrow(/invalid algorithm/);
  });
});
