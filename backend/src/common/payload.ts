/**
 * One schema per inbound message (issue #29): every socket payload and every HTTP body is checked against its
 * class-validator DTO before its handler runs. Gateways call `parsePayload(Dto, data)` first thing; HTTP bodies
 * reach the global pipe (common/validation.ts). A malformed message is refused with the DTO's clear text
 * (`InvalidPayload`: 400 `{ message, code: INVALID_PAYLOAD }`; on a socket the ack `{ ok:false, message, code: INVALID_PAYLOAD }` and the
 * `error` event) and nothing runs.
 *
 * DTOs of the socket protocol (and the HTTP bodies that share them) extend `PayloadInput`: fields a DTO does not
 * declare are ignored rather than refused (clients send extra ones, e.g. `creatorId`), and the class may map
 * legacy spellings onto its fields (`static normalize`).
 */
import { BadRequestException } from '@nestjs/common';
import { WireError } from '@spades/common';
import { plainToInstance } from 'class-transformer';
import { ValidateBy, validateSync, type ValidationError } from 'class-validator';

export class InvalidPayload extends BadRequestException {
  readonly code = WireError.INVALID_PAYLOAD;
  constructor(message: string) {
    super({ message });
    this.message = message;
  }
}

export type PayloadObject = Record<string, unknown>;

/** Base of the lenient DTOs (socket payloads and the HTTP bodies that share them). */
export abstract class PayloadInput {}

/** Messages whose payload is not read (`unwatch_lobby`, `quickplay_leave`, …): anything is accepted. */
export class NoPayloadInput extends PayloadInput {}

interface PayloadClass<T extends object> {
  new (): T;
  /** The raw payload → the DTO's fields (legacy spellings, e.g. `seat` → `seatIndex`), before validation. */
  normalize?(data: unknown): PayloadObject;
}

export function isPayloadClass(c: unknown): c is PayloadClass<PayloadInput> {
  return typeof c === 'function' && c.prototype instanceof PayloadInput;
}

/** A payload as an object: a bare string is a legacy client's `gameId`; anything else not an object is `{}`. */
export function objectOf(data: unknown): PayloadObject {
  if (typeof data === 'string') return { gameId: data };
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as PayloadObject) : {};
}

/** Every constraint message of a validation result, nested ones included, each text once. */
export function validationMessages(errors: ValidationError[]): string[] {
  const out: string[] = [];
  for (const e of errors) {
    if (e.constraints) out.push(...Object.values(e.constraints));
    if (e.children?.length) out.push(...validationMessages(e.children));
  }
  return [...new Set(out)];
}

/** The refusal text of a check that throws 400 (or answers `{ ok:false, message }`), or null when it passes. */
export function refusalOf(check: () => unknown): string | null {
  try {
    const r = check();
    if (r && typeof r === 'object' && (r as { ok?: unknown }).ok === false)
      return String((r as { message?: unknown }).message ?? 'Invalid payload');
    return null;
  } catch (e) {
    if (e instanceof BadRequestException) return e.message;
    throw e;
  }
}

/**
 * A field (or, with `whole`, the message itself) checked by an existing pure check — a parser of common or a
 * service's `check…` — so its text stays the one clients know: `Satisfies((v) => parseX(v))`.
 */
export const Satisfies = (check: (value: unknown) => unknown, opts: { whole?: boolean } = {}) => {
  const problem = (args?: { value?: unknown; object?: unknown }) =>
    refusalOf(() => check(opts.whole ? args?.object : args?.value));
  return ValidateBy({
    name: 'satisfies',
    validator: {
      validate: (_v: unknown, args) => problem(args) === null,
      defaultMessage: (args) => problem(args) ?? 'Invalid payload',
    },
  });
};

/**
 * A string of `min`–`max` characters, with one message per problem: `missing` when it is not a string or is
 * shorter, "<field> must be at most <max> characters" when longer.
 */
export const IsText = (opts: { missing: string; min?: number; max: number }) =>
  ValidateBy({
    name: 'isText',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length >= (opts.min ?? 1) && v.length <= opts.max,
      defaultMessage: (args) =>
        typeof args?.value === 'string' && args.value.length > opts.max
          ? `${args.property} must be at most ${opts.max} characters`
          : opts.missing,
    },
  });

/** The payload as its DTO, or `InvalidPayload` with every problem in one sentence. */
export function parsePayload<T extends object>(dto: PayloadClass<T>, data: unknown): T {
  const plain = dto.normalize ? dto.normalize(data) : objectOf(data);
  const instance = plainToInstance(dto, plain);
  // declared fields the message does not have stay absent (ES2022 class fields would define them as undefined)
  for (const key of Object.keys(instance))
    if (!(key in plain) && (instance as PayloadObject)[key] === undefined) delete (instance as PayloadObject)[key];
  const errors = validateSync(instance, {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw new InvalidPayload(validationMessages(errors).join('; ') || 'Invalid payload');
  return instance;
}
