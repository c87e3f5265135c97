import { describe, expect, it } from '@jest/globals';
import { BadRequestException, ForbiddenException, HttpException } from '@nestjs/common';
import { WireError } from '@spades/common';
import { TableError } from '../games/table.record';
import { codeOf, HttpExceptionFilter } from './http-exception.filter';
import { InvalidPayload } from './payload';

/** Runs the filter on `e` as for an HTTP request and returns what it sent. */
function sent(e: unknown): { status: number; body: unknown } {
  const out = { status: 0, body: undefined as unknown };
  const res = {
    headersSent: false,
    status: (s: number) => ((out.status = s), { json: (b: unknown) => (out.body = b) }),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ method: 'GET', url: '/x' }) }),
  };
  new HttpExceptionFilter().catch(e, host as never);
  return out;
}

describe('HTTP error bodies carry a typed code (issue #29)', () => {
  it('a refusal with a code of the list sends { message, code }', () => {
    expect(sent(new TableError('This table is private: you need an invitation', 403, WireError.PRIVATE_TABLE))).toEqual(
      {
        status: 403,
        body: { message: 'This table is private: you need an invitation', code: 'PRIVATE_TABLE' },
      },
    );
    expect(sent(new InvalidPayload('gameId must be a UUID'))).toEqual({
      status: 400,
      body: { message: 'gameId must be a UUID', code: 'INVALID_PAYLOAD' },
    });
    expect(sent(new ForbiddenException({ message: 'No', code: WireError.PRIVATE_GAME }))).toEqual({
      status: 403,
      body: { message: 'No', code: 'PRIVATE_GAME' },
    });
  });

  it('a refusal without a code, or with a code outside the list, sends { message } only', () => {
    expect(sent(new TableError('That seat is taken'))).toEqual({
      status: 400,
      body: { message: 'That seat is taken' },
    });
    expect(sent(new BadRequestException({ message: 'Bad', code: 'SOMETHING_ELSE' }))).toEqual({
      status: 400,
      body: { message: 'Bad' },
    });
    const driver = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(codeOf(driver)).toBeUndefined();
    const internal = sent(driver);
    expect(internal.status).toBe(500);
    expect(Object.keys(internal.body as object)).toEqual(['message']);
    expect(codeOf(new HttpException('text only', 409))).toBeUndefined();
  });
});
