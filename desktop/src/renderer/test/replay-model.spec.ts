import { describe, expect, it } from 'vitest';
import { cardEquals } from '@spades/common';
import {
  buildTimeline,
  frameAt,
  handStart,
  handStartOf,
  isReplayDocument,
  lastPosition,
  nextStop,
  nextTrick,
  prevStop,
  prevTrick,
} from '../replay/replay-model';
import { replayFixture } from '../replay/replay-fixture';

const doc = replayFixture(11);
const t = buildTimeline(doc);

describe('replay timeline (pure model, no React)', () => {
  it('recognises the versioned document', () => {
    expect(isReplayDocument(doc)).toBe(true);
    expect(isReplayDocument({ ...doc, version: 2 })).toBe(false);
    expect(isReplayDocument({ ...doc, schema: 'other' })).toBe(false);
  });

  it('steps card by card from the first deal to the final state and back', () => {
    let pos = 0;
    const seen: number[] = [];
    for (;;) {
      const n = nextStop(t, pos);
      if (n === pos) break;
      seen.push(n);
      pos = n;
    }
    expect(pos).toBe(lastPosition(t));
    expect(t.states[pos].result).toEqual(doc.result);
    // every play is a stop: 52 per hand
    const plays = seen.filter((p) => doc.actions[p - 1].action.type === 'play');
    expect(plays).toHaveLength(52 * doc.hands.length);
    for (let i = seen.length - 1; i > 0; i--) {
      pos = prevStop(t, pos);
      expect(pos).toBe(seen[i - 1]);
    }
  });

  it('steps by trick: four cards, the completed trick with its winner; back to the hand start', () => {
    const start = handStart(t, 1);
    const f0 = frameAt(t, start);
    expect(f0.handNumber).toBe(1);
    expect(f0.hands.map((h) => h.length)).toEqual([13, 13, 13, 13]);
    expect(f0.hands).toEqual(doc.hands[0].cards);
    const end1 = nextTrick(t, start);
    const f1 = frameAt(t, end1);
    expect(f1.trick).toHaveLength(4);
    expect(f1.winner).toBe(doc.hands[0].tricks[0].winner);
    expect(f1.trickNumber).toBe(1);
    expect(f1.table.trickPending).toBe(true);
    expect(f1.caption).toMatch(/wins the trick/);
    expect(f1.hands.reduce((n, h) => n + h.length, 0)).toBe(48);
    // the cards on the table left their owners' hands
    for (const c of f1.trick) expect(f1.hands[c.seat].some((h) => cardEquals(h, c.card))).toBe(false);
    const end2 = nextTrick(t, end1);
    expect(frameAt(t, end2).trickNumber).toBe(2);
    expect(prevTrick(t, end2)).toBe(end1);
    expect(prevTrick(t, end1)).toBe(start);
    // one card after a completed trick: a new trick of one card, no winner
    const one = nextStop(t, end1);
    expect(frameAt(t, one).trick).toHaveLength(1);
    expect(frameAt(t, one).winner).toBeNull();
    expect(frameAt(t, one).trickNumber).toBe(2);
  });

  it('jumps to a hand; the frame carries the table model the live table renders', () => {
    const last = doc.hands.length;
    const p = handStart(t, last);
    expect(handStartOf(t, p)).toBe(p);
    expect(handStartOf(t, p + 3)).toBe(p);
    const f = frameAt(t, p);
    expect(f.handNumber).toBe(last);
    expect(f.hand?.seed).toBe(doc.hands[last - 1].seed);
    expect(f.table.seats.map((s) => s?.username)).toEqual(['Ada', 'Bot 2', 'Bot 3', 'Bot 4']);
    expect(f.table.mySeat).toBeNull();
    const end = frameAt(t, lastPosition(t));
    expect(end.table.status).toBe('COMPLETED');
    expect(end.table.places).toEqual(doc.result.places);
    expect(end.table.scores).toEqual(doc.result.finalScores);
    // bids shown on the seats once placed
    const afterBids = t.stops.find((q) => q > p && t.states[q].phase === 'PLAYING')!;
    expect(frameAt(t, afterBids).table.bids).toEqual(doc.hands[last - 1].score.bids);
  });
});
