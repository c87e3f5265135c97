/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Quick chat (issue #31) with a real server and socket.io clients: a preset becomes a table chat line marked
 * `quick`, an unknown preset is refused, a player who blocks the sender never receives it (live or in the view),
 * and quick chat shares the per-player chat limit with typed chat.
 */
import { CHAT_RATE_MAX, QUICK_CHAT, QUICK_CHAT_ERROR, WireError } from '@spades/common';
import { RATE_MESSAGES } from '../../src/realtime/rate.limiter';
import { api, sleep, type TestApp } from '../support/test-app';
import { gamesSuite, SETTINGS } from './helpers';

describe('games: quick chat (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));

  it('posts presets as marked lines, hides them from blockers, refuses unknown ids and shares the chat limit', async () => {
    const a = await client();
    const b = await client();
    const c = await client();
    const gameId = (await a.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await b.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
    await c.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 2 });
    for (const x of [a, b, c]) await x.emit('join_game', { gameId });
    // c blocks a
    expect(
      (await api(t.url, 'POST', '/api/social/block', { token: c.user.token, body: { blockId: a.id } })).status,
    ).toBe(200);

    const preset = QUICK_CHAT.find((p) => p.id === 'nice-play')!;
    expect(await a.emit('quick_chat', { gameId, id: preset.id })).toMatchObject({ ok: true });
    const line = (x: typeof a) => x.events('chat_message').find((m) => m.message.quick === preset.id);
    await b.waitFor(() => !!line(b), 5000, 'quick chat line');
    expect(line(b).message).toMatchObject({ userId: a.id, message: preset.text, quick: preset.id });
    await a.waitFor(() => !!line(a), 5000, 'own quick chat line');
    // the blocker: neither live nor in a fresh view of the table
    await sleep(200);
    expect(line(c)).toBeUndefined();
    const view = await c.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(view.body.chat.some((m: any) => m.quick === preset.id)).toBe(false);

    expect(await a.emit('quick_chat', { gameId, id: 'free text' })).toEqual({
      ok: false,
      message: QUICK_CHAT_ERROR,
      code: WireError.INVALID_PAYLOAD,
    });

    // the same per-player limit as typed chat: b sends CHAT_RATE_MAX lines at once, the next one is refused
    const acks = [];
    for (let i = 0; i < CHAT_RATE_MAX; i++) acks.push(await b.emit('quick_chat', { gameId, id: 'thumbs-up' }));
    acks.push(await b.emit('chat_message', { gameId, message: 'typed' }));
    expect(acks.slice(0, CHAT_RATE_MAX).every((x) => x.ok)).toBe(true);
    expect(acks[CHAT_RATE_MAX]).toEqual({ ok: false, message: RATE_MESSAGES.chatTooFast });
  }, 30000);
});
