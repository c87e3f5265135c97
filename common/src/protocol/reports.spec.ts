import { describe, expect, it } from 'vitest';
import { parseReportRequest, REPORT_TEXT_MAX } from './reports';

const target = '0b7e8f3e-6a1d-4c1e-9a55-1f2d3c4b5a69';
const game = '5f0c1b2a-3d4e-4f60-8a7b-9c0d1e2f3a4b';

describe('parseReportRequest', () => {
  it('accepts each context kind, keeping only the ids', () => {
    for (const context of [
      { kind: 'profile' },
      { kind: 'game', gameId: game },
      { kind: 'lobby_chat', messageId: game },
      { kind: 'table_chat', gameId: game, messageId: 'a1b2c3d4e5f60718' },
    ]) {
      const r = parseReportRequest({
        userId: target,
        category: 'abusive_chat',
        text: ' rude ',
        context: { ...context, text: 'forged' },
      });
      expect(r).toEqual({ ok: true, value: { userId: target, category: 'abusive_chat', text: 'rude', context } });
    }
  });

  it('refuses a server-only category, a bad id, a bad context and too long a text', () => {
    const base = { userId: target, category: 'spam', context: { kind: 'profile' } };
    expect(parseReportRequest({ ...base, category: 'auto-mute' })).toMatchObject({ ok: false });
    expect(parseReportRequest({ ...base, userId: 'nobody' })).toEqual({
      ok: false,
      message: 'userId must be a player id',
    });
    expect(parseReportRequest({ ...base, context: { kind: 'lobby_chat', messageId: 'x' } })).toEqual({
      ok: false,
      message: 'messageId must be a lobby chat message id',
    });
    expect(parseReportRequest({ ...base, context: { kind: 'elsewhere' } })).toMatchObject({ ok: false });
    expect(parseReportRequest({ ...base, text: 'x'.repeat(REPORT_TEXT_MAX + 1) })).toEqual({
      ok: false,
      message: `A report can have at most ${REPORT_TEXT_MAX} characters`,
    });
    expect(parseReportRequest({ ...base, text: 'a\u202Eb' })).toMatchObject({ ok: false });
    expect(parseReportRequest(null)).toEqual({ ok: false, message: 'A report must be an object' });
  });
});
