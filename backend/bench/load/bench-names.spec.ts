import { checkUsername, nameKey } from '@spades/common';
import { benchUsername } from './bench-names';

describe('bench account names', () => {
  it('are valid usernames and unique under the look-alike rule for 2,000 tables of five accounts', () => {
    const keys = new Set<string>();
    for (let ti = 0; ti < 2000; ti++)
      for (let k = 0; k < 5; k++) {
        const name = benchUsername('a1f0', ti, k);
        const checked = checkUsername(name);
        expect(checked).toEqual({ ok: true, username: name, key: nameKey(name) });
        keys.add(nameKey(name));
      }
    expect(keys.size).toBe(10_000);
  });
});
