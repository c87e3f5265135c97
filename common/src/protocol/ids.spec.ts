import { describe, expect, it } from 'vitest';
import { isUuid, UUID_RE } from './ids';

describe('isUuid', () => {
  it('accepts a UUID in either case and nothing else', () => {
    expect(isUuid('00000000-0000-4000-8000-000000000001')).toBe(true);
    expect(isUuid('ABCDEF01-2345-4678-9ABC-DEF012345678')).toBe(true);
    for (const v of [
      '',
      'x',
      '00000000-0000-4000-8000-00000000000',
      '00000000-0000-4000-8000-0000000000011',
      42,
      null,
      undefined,
      {},
    ]) {
      expect(isUuid(v)).toBe(false);
    }
    expect(UUID_RE.test(' 00000000-0000-4000-8000-000000000001')).toBe(false);
  });
});
