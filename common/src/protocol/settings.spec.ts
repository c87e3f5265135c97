import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, validateSettings } from '../rules/settings';
import {
  checkSettingsPatch,
  compileChatFilter,
  completeSettings,
  DEFAULT_SERVER_SETTINGS,
  filterChatWords,
  formatInviteCode,
  normalizeInviteCode,
  publicSettings,
  settingsForPreset,
  TABLE_PRESETS,
  tablePresetLabel,
  tablePresetOf,
} from './settings';

describe('table presets', () => {
  it('lists every mode × variant the rules allow (SUICIDE is PARTNERS only)', () => {
    expect(TABLE_PRESETS).toHaveLength(15);
    expect(TABLE_PRESETS).toContain('PARTNERS:SUICIDE');
    expect(TABLE_PRESETS).not.toContain('SOLO:SUICIDE');
    expect(new Set(TABLE_PRESETS).size).toBe(15);
  });

  it('turns every preset into settings the rules accept, and back', () => {
    for (const key of TABLE_PRESETS) {
      const s = settingsForPreset(key, DEFAULT_SETTINGS);
      const v = validateSettings(s);
      expect(v.ok).toBe(true);
      if (v.ok) expect(tablePresetOf(v.settings)).toBe(key);
    }
  });

  it('names the preset of game settings: the bidding option, or the gimmick', () => {
    expect(tablePresetOf(DEFAULT_SETTINGS)).toBe('PARTNERS:REG');
    expect(tablePresetOf({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: 'BID 3' })).toBe('SOLO:BID 3');
    expect(tablePresetOf({ gameMode: 'SOLO', biddingOption: 'WHIZ', gimmick: null })).toBe('SOLO:WHIZ');
    expect(tablePresetLabel('SOLO:BID 3')).toBe('Solo · BID 3');
  });
});

describe('checkSettingsPatch', () => {
  it('accepts each setting and normalises it', () => {
    const r = checkSettingsPatch({
      registration: 'invite',
      startingCoins: 0,
      signIns: { discord: false },
      tablePresets: ['SOLO:WHIZ', 'PARTNERS:REG', 'SOLO:WHIZ'],
      announcement: { text: '  Tournament tonight  ' },
      chatFilter: ['  bad   word ', 'Bad Word', 'freak*', ''],
      autoMuteThreshold: 5,
      serverName: ' Night Owls ',
      serverDescription: 'Line one\nline two',
      serverIcon: 'https://example.org/icon.png',
    });
    expect(r).toEqual({
      ok: true,
      patch: {
        registration: 'invite',
        startingCoins: 0,
        signIns: { discord: false },
        tablePresets: ['PARTNERS:REG', 'SOLO:WHIZ'],
        announcement: { text: 'Tournament tonight', level: 'info' },
        chatFilter: ['bad word', 'freak*'],
        autoMuteThreshold: 5,
        serverName: 'Night Owls',
        serverDescription: 'Line one\nline two',
        serverIcon: 'https://example.org/icon.png',
      },
    });
    expect(checkSettingsPatch({ announcement: null, serverName: null, serverIcon: null })).toEqual({
      ok: true,
      patch: { announcement: null, serverName: null, serverIcon: null },
    });
  });

  it.each([
    [null, /must be an object/],
    [{}, /Nothing to change/],
    [{ nope: 1 }, /Unknown setting "nope"/],
    [{ registration: 'OPEN' }, /registration/],
    [{ startingCoins: 1.5 }, /startingCoins/],
    [{ signIns: { discord: 'yes' } }, /signIns/],
    [{ signIns: { discord: true, github: true } }, /signIns/],
    [{ tablePresets: [] }, /at least one/],
    [{ tablePresets: ['SOLO:SUICIDE'] }, /Unknown table preset/],
    [{ announcement: { text: '' } }, /1–300/],
    [{ announcement: { text: 'x', level: 'urgent' } }, /level/],
    [{ announcement: { text: 'a\u202eb' } }, /text-direction/],
    [{ chatFilter: 'word' }, /list of words/],
    [{ chatFilter: ['***'] }, /letters or digits/],
    [{ autoMuteThreshold: 1 }, /2 to 50/],
    [{ serverName: '' }, /1–80/],
    [{ serverName: 'a\nb' }, /control characters/],
    [{ serverIcon: 'javascript:alert(1)' }, /serverIcon/],
    [{ serverIcon: 'data:image/png;base64,AAAA' }, /serverIcon/],
  ])('refuses %j', (input, message) => {
    const r = checkSettingsPatch(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe('completeSettings', () => {
  it('fills what is missing or no longer valid with the defaults', () => {
    expect(completeSettings(undefined)).toEqual(DEFAULT_SERVER_SETTINGS);
    const s = completeSettings({ registration: 'closed', startingCoins: -5, tablePresets: ['GONE:X'], extra: 1 });
    expect(s.registration).toBe('closed');
    expect(s.startingCoins).toBe(DEFAULT_SERVER_SETTINGS.startingCoins);
    expect(s.tablePresets).toEqual(TABLE_PRESETS);
    expect(s).not.toHaveProperty('extra');
  });

  it('keeps a stored announcement with its id and time', () => {
    const a = { id: 'a1', text: 'Hi', level: 'warning', at: '2026-11-27T00:00:00.000Z' };
    expect(completeSettings({ announcement: a }).announcement).toEqual(a);
  });

  it('shows the public part only, with the environment identity where a setting is null', () => {
    const p = publicSettings(
      { ...DEFAULT_SERVER_SETTINGS, chatFilter: ['secret'], serverDescription: 'Ours' },
      { discord: false },
      { name: 'Env name', description: 'Env', iconUrl: null },
    );
    expect(p).toEqual({
      serverName: 'Env name',
      serverDescription: 'Ours',
      serverIcon: null,
      registration: 'open',
      startingCoins: DEFAULT_SERVER_SETTINGS.startingCoins,
      signIns: { discord: false }, // offered, but not configured
      tablePresets: TABLE_PRESETS,
      announcement: null,
      tournaments: { playerSitAndGo: true }, // the no-show time is not public
    });
  });
});

describe('filterChatWords', () => {
  const words = ['freak', 'dumb*', 'bad word', 'ass'];

  it('masks whole words and phrases, case-insensitively, one * per character', () => {
    expect(filterChatWords('You FREAK', words)).toEqual({ text: 'You *****', masked: 1 });
    expect(filterChatWords('dumb dumber dumbest', words).text).toBe('**** ****** *******');
    expect(filterChatWords('a bad word, a  bad   word', words).text).toBe('a *** ****, a  ***   ****');
  });

  it('folds look-alike digits, signs and accents', () => {
    expect(filterChatWords('fr3ak fr€ak FRÉAK fre@k', words).text).toBe('***** fr€ak ***** *****');
    expect(filterChatWords('ｆｒｅａｋ', words).text).toBe('*****');
  });

  it('leaves words that only contain a filtered word alone', () => {
    expect(filterChatWords('freaky class assist', words)).toEqual({ text: 'freaky class assist', masked: 0 });
  });

  it('keeps emoji and other text intact around a match', () => {
    expect(filterChatWords('🂡 freak 🂡', words).text).toBe('🂡 ***** 🂡');
  });

  it('an empty filter changes nothing; a compiled filter gives the same result', () => {
    expect(filterChatWords('anything', [])).toEqual({ text: 'anything', masked: 0 });
    const compiled = compileChatFilter(words);
    expect(filterChatWords('a Freak', compiled)).toEqual(filterChatWords('a Freak', words));
  });

  it('never changes the length in code points, nor anything but masked letters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const out = filterChatWords(text, words).text;
        const [a, b] = [Array.from(text), Array.from(out)];
        expect(b).toHaveLength(a.length);
        a.forEach((ch, i) => expect(b[i] === ch || b[i] === '*').toBe(true));
      }),
    );
  });
});

describe('invite codes', () => {
  it('reads what a person types and formats in groups of four', () => {
    expect(normalizeInviteCode('abcd-efgh-jkmn')).toBe('ABCDEFGHJKMN');
    expect(normalizeInviteCode(' ABCD EFGH JKMN ')).toBe('ABCDEFGHJKMN');
    expect(normalizeInviteCode('ABCD-EFGH-JKM0')).toBeNull(); // 0 is not in the alphabet
    expect(normalizeInviteCode(42)).toBeNull();
    expect(formatInviteCode('ABCDEFGHJKMN')).toBe('ABCD-EFGH-JKMN');
  });
});
