import { describe, expect, it } from '@jest/globals';
import { WireError } from '@spades/common';
import { InvalidPayload, parsePayload } from '../common/payload';
import { ReplayShareBodyInput } from './replay-share.input';

const parse = (body: unknown) => parsePayload(ReplayShareBodyInput, body);

describe('ReplayShareBodyInput: the body of POST /api/games/:id/replay/shares', () => {
  it('takes a game number, a string of digits, or nothing (the latest game)', () => {
    expect(parse({ game: 3 }).game).toBe(3);
    expect(parse({ game: '12' }).game).toBe(12);
    for (const body of [{}, { game: null }, { game: '' }, null, []]) expect(parse(body).game).toBeUndefined();
  });

  it('refuses anything else with one clear sentence and INVALID_PAYLOAD', () => {
    for (const game of [0, -1, 1.5, 1_000_001, 'latest', '2x', true, { n: 1 }, [2]]) {
      let err: unknown;
      try {
        parse({ game });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidPayload);
      expect((err as InvalidPayload).message).toBe('game must be an integer between 1 and 1000000');
      expect((err as InvalidPayload).code).toBe(WireError.INVALID_PAYLOAD);
    }
  });
});
