/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Claim the rest (issue #31) with a real server and socket.io clients: a player plays with three bots; at a turn
 * where `canClaim` is false the server refuses `claim` (ack + `error`, nothing changes), and at the first turn
 * where it is true the claim plays every remaining trick out at once through the engine — the claimer takes them
 * all, the table says so in the chat, and the stored event log restores to the same hand.
 */
import { claimErrorMessage } from '@spades/common';
import type { TestApp } from '../support/test-app';
import { gamesSuite, SETTINGS, storedTable } from './helpers';

describe('games: claim the rest (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));

  it('refuses a claim that is not certain and plays out a certain one at once', async () => {
    const h = await client();
    const gameId = (await h.http(t.url, 'POST', '/api/games', { ...SETTINGS, maxPoints: 650, minPoints: -250 })).body
      .id;
    for (const s of [1, 2, 3]) await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    h.strategy = (v) => ({ bid: Math.min(...v.legalBids.bids.filter((b: number) => b > 0)) });

    let refused: { ack: any; before: any; after?: any } | null = null;
    let claimed: { ack: any; before: any } | null = null;
    // bids from the client's own view; plays its lowest card (non-spades first) so that it keeps its winners
    const auto = h.maybeAct.bind(h);
    const played = new Set<string>();
    const play = () => {
      const v = h.view;
      if (!(v && v.status === 'PLAYING' && v.currentPlayerIndex === v.mySeat)) return auto();
      // not while the last trick is still shown: the claim may become possible at the next turn (and a card sent
      // now would race the claim sent when the trick clears)
      if (v.play.trickPending || (v.canClaim && !claimed)) return;
      const key = `${v.handNumber}:${v.play.trickNumber}:${v.play.currentTrick.length}`;
      if (played.has(key) || !v.legalCards.length) return;
      played.add(key);
      const low = [...v.legalCards].sort(
        (a: any, b: any) => (a.suit === 'S' ? 1 : 0) - (b.suit === 'S' ? 1 : 0) || a.rank - b.rank,
      )[0];
      void h.emit('play_card', { gameId, card: low, actionId: `p${key}` });
    };
    let busy = false;
    h.maybeAct = () => {
      const v = h.view;
      const myPlay = v && v.status === 'PLAYING' && v.currentPlayerIndex === v.mySeat && !v.play.trickPending;
      if (!myPlay || busy || claimed) return play();
      if (v.canClaim) {
        busy = true;
        void h.emit('claim', { gameId, actionId: 'claim-1' }).then((ack) => {
          claimed = { ack, before: v };
          busy = false;
        });
        return;
      }
      if (!refused) {
        busy = true;
        void h.emit('claim', { gameId }).then((ack) => {
          refused = { ack, before: v, after: h.view };
          busy = false;
          play();
        });
        return;
      }
      play();
    };
    h.auto = true;
    expect(await h.emit('start_game', { gameId })).toMatchObject({ ok: true });
    await h.waitFor(() => claimed !== null, 60000, 'a claimable position');

    // the refusal: typed message in the ack and an `error` event; the position did not move
    const r = refused as unknown as { ack: any; before: any; after: any };
    expect(r.ack).toEqual({ ok: false, message: claimErrorMessage('NOT_CERTAIN') });
    expect(h.errors).toContain(claimErrorMessage('NOT_CERTAIN'));
    expect(r.after.play.trickNumber).toBe(r.before.play.trickNumber);
    expect(r.after.hands[0]).toEqual(r.before.hands[0]);

    // the claim: every remaining trick to the claimer, at once
    const c = claimed as unknown as { ack: any; before: any };
    const remaining = 13 - c.before.play.trickNumber;
    expect(c.ack).toMatchObject({ ok: true, tricks: remaining });
    const hand = c.before.handNumber;
    await h.waitFor(() => h.events('hand_completed').some((p) => p.handNumber === hand), 10000, 'hand summary');
    const summary = h.events('hand_completed').find((p) => p.handNumber === hand);
    expect(summary.tricksPerPlayer[0]).toBe(c.before.play.tricks[0] + remaining);
    const line = h.view.chat.find((m: any) => m.userId === 'system' && /claimed the remaining/.test(m.message));
    expect(line.message).toContain(`claimed the remaining ${remaining} trick`);

    // the event log replays to the same hand record (restart-exact)
    const stored = await storedTable(t, gameId);
    const record = stored.snapshot.engine.history.find((x: any) => x.handNumber === hand);
    expect(record.tricksPerSeat).toEqual(summary.tricksPerPlayer);
    h.auto = false;
  }, 90000);
});
