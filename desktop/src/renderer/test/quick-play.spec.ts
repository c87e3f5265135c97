import { describe, expect, it } from 'vitest';
import { formatWait, loadWanted, partnerOf, rememberPartner, saveWanted } from '../components/quick-play';

describe('quick play helpers (issue #28)', () => {
  it('keeps the partner of a quick-play table per table, for Keep partner', () => {
    expect(partnerOf('g1')).toBeNull();
    rememberPartner('g1', { partnerId: 'p', partnerName: 'Pat', mode: 'PARTNERS', stake: 'mid', pace: 'fast' });
    expect(partnerOf('g1')).toEqual({
      partnerId: 'p',
      partnerName: 'Pat',
      mode: 'PARTNERS',
      stake: 'mid',
      pace: 'fast',
    });
    expect(partnerOf('g2')).toBeNull();
    expect(partnerOf(undefined)).toBeNull();
  });

  it('formats the estimated wait', () => {
    expect(formatWait(undefined)).toBe('');
    expect(formatWait(200)).toBe('~1 s');
    expect(formatWait(45_000)).toBe('~45 s');
    expect(formatWait(150_000)).toBe('~3 min');
  });

  it('remembers the queue the tab wants (re-sent after a reload or reconnect) until it is cleared', () => {
    expect(loadWanted()).toBeNull();
    saveWanted({ mode: 'SOLO', stake: 'high', pace: 'normal' });
    expect(loadWanted()).toEqual({ mode: 'SOLO', stake: 'high', pace: 'normal' });
    saveWanted(null);
    expect(loadWanted()).toBeNull();
  });
});
