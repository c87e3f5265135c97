import { WireError } from '@spades/common';
import { IsInt, IsOptional } from 'class-validator';
import { IsText, InvalidPayload, parsePayload, PayloadInput, Satisfies, type PayloadObject } from './payload';

class Sample extends PayloadInput {
  static normalize(data: unknown): PayloadObject {
    const o = typeof data === 'string' ? { name: data } : ((data as PayloadObject) ?? {});
    return { ...o, name: o.name ?? o.alias };
  }

  @IsText({ missing: 'name is required', max: 5 })
  name!: string;

  @IsOptional()
  @IsInt({ message: 'count must be a whole number' })
  count?: number;
}

class Whole extends PayloadInput {
  @Satisfies(
    (o) => ((o as PayloadObject).a === (o as PayloadObject).b ? { ok: true } : { ok: false, message: 'a ≠ b' }),
    {
      whole: true,
    },
  )
  a!: unknown;
}

function refusal(run: () => unknown): { message: string; code: string } | null {
  try {
    run();
    return null;
  } catch (e) {
    return e instanceof InvalidPayload ? { message: e.message, code: e.code } : null;
  }
}

describe('parsePayload', () => {
  it('gives the DTO instance, legacy spellings mapped, fields it does not declare kept but unchecked', () => {
    const p = parsePayload(Sample, { alias: 'ada', extra: 1 });
    expect(p).toBeInstanceOf(Sample);
    expect(p.name).toBe('ada');
    expect('count' in p).toBe(false);
    expect(parsePayload(Sample, 'bob').name).toBe('bob');
  });

  it('refuses a malformed payload with the DTO texts, each once, and the INVALID_PAYLOAD code', () => {
    expect(refusal(() => parsePayload(Sample, { name: 42, count: 'x' }))).toEqual({
      message: 'name is required; count must be a whole number',
      code: WireError.INVALID_PAYLOAD,
    });
    expect(refusal(() => parsePayload(Sample, { name: 'toolong' }))?.message).toBe('name must be at most 5 characters');
    expect(refusal(() => parsePayload(Sample, 42))?.message).toBe('name is required');
  });

  it('runs a whole-message check on the message itself', () => {
    expect(parsePayload(Whole, { a: 1, b: 1 })).toMatchObject({ a: 1, b: 1 });
    expect(refusal(() => parsePayload(Whole, { a: 1, b: 2 }))?.message).toBe('a ≠ b');
  });
});
