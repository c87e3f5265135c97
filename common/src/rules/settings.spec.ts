import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { apply, createGame } from './engine';
import { legalBids, viewFor } from './view';
import {
  applySettingsChange,
  BIDDING_OPTIONS,
  blindNilOffered,
  DEFAULT_SETTINGS,
  GAME_MODES,
  GIMMICKS,
  SettingsChange,
  formatBuyIn,
  formatCoins,
  formatCoinsExact,
  GameSettings,
  nextBuyIn,
  nextMaxPoints,
  nextMinPoints,
  prevBuyIn,
  prevMaxPoints,
  prevMinPoints,
  settingsControlState,
  toCreateGameRequest,
  toListItemRules,
  validateSettings,
} from './settings';

function make(over: Partial<GameSettings> & { sr?: Partial<GameSettings['specialRules']> } = {}): GameSettings {
  const { sr, ...rest } = over;
  return { ...DEFAULT_SETTINGS, ...rest, specialRules: { ...DEFAULT_SETTINGS.specialRules, ...sr } };
}

describe('DEFAULT_SETTINGS', () => {
  it('match spec §4 defaults and are valid', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      gameMode: 'PARTNERS',
      biddingOption: 'REG',
      gimmick: 'SUICIDE',
      minPoints: -100,
      maxPoints: 500,
      buyIn: 100000,
      specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
    });
    const r = validateSettings(DEFAULT_SETTINGS);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.settings.gimmick).toBeNull(); // normalised: gimmick only with GIMMICK
  });
});

describe('validateSettings', () => {
  it.each([
    ['minPoints', -250, true],
    ['minPoints', -200, true],
    ['minPoints', -150, true],
    ['minPoints', -100, true],
    ['minPoints', -300, false],
    ['minPoints', -50, false],
    ['minPoints', -125, false],
    ['minPoints', -100.5, false],
    ['minPoints', '-100', false],
    ['maxPoints', 100, true],
    ['maxPoints', 650, true],
    ['maxPoints', 350, true],
    ['maxPoints', 50, false],
    ['maxPoints', 700, false],
    ['maxPoints', 120, false],
    ['buyIn', 100000, true],
    ['buyIn', 150000, true],
    ['buyIn', 950000, true],
    ['buyIn', 1000000, true],
    ['buyIn', 1100000, true],
    ['buyIn', 1050000, false],
    ['buyIn', 50000, false],
    ['buyIn', 99999, false],
    ['buyIn', 125000, false],
    ['buyIn', 1_000_000_000, true],
    ['buyIn', 1_000_100_000, false],
    ['buyIn', Number.NaN, false],
    ['buyIn', Infinity, false],
  ] as const)('%s = %s → ok %s', (field, value, ok) => {
    const r = validateSettings({ ...make(), [field]: value });
    expect(r.ok).toBe(ok);
    if (!r.ok)
      expect(r.error).toBe(
        field === 'minPoints' ? 'INVALID_MIN_POINTS' : field === 'maxPoints' ? 'INVALID_MAX_POINTS' : 'INVALID_BUY_IN',
      );
  });

  it.each([
    ['SUICIDE solo', make({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: 'SUICIDE' }), 'SUICIDE_PARTNERS_ONLY'],
    ['MIRROR nil off', make({ biddingOption: 'MIRROR', sr: { allowNil: false } }), 'MIRROR_REQUIRES_NIL'],
    ['MIRROR blind nil', make({ biddingOption: 'MIRROR', sr: { allowBlindNil: true } }), 'MIRROR_FORBIDS_BLIND_NIL'],
    ['blind nil without nil', make({ sr: { allowNil: false, allowBlindNil: true } }), 'BLIND_NIL_REQUIRES_NIL'],
    ['WHIZ blind nil', make({ biddingOption: 'WHIZ', sr: { allowBlindNil: true } }), 'BLIND_NIL_NOT_OFFERED'],
    [
      'BID 3 blind nil',
      make({ biddingOption: 'GIMMICK', gimmick: 'BID 3', sr: { allowBlindNil: true } }),
      'BLIND_NIL_NOT_OFFERED',
    ],
    [
      'BID HEARTS blind nil',
      make({ biddingOption: 'GIMMICK', gimmick: 'BID HEARTS', sr: { allowBlindNil: true } }),
      'BLIND_NIL_NOT_OFFERED',
    ],
    [
      'CRAZY ACES blind nil',
      make({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: 'CRAZY ACES', sr: { allowBlindNil: true } }),
      'BLIND_NIL_NOT_OFFERED',
    ],
    [
      'BID 3 blind nil (request shape)',
      { ...make({ sr: { allowBlindNil: true } }), biddingOption: 'BID 3', gimmick: undefined },
      'BLIND_NIL_NOT_OFFERED',
    ],
    ['screamer and assassin', make({ sr: { screamer: true, assassin: true } }), 'SCREAMER_AND_ASSASSIN'],
    ['bad mode', { ...make(), gameMode: 'TRIO' }, 'INVALID_GAME_MODE'],
    ['bad option', { ...make(), biddingOption: 'FOO' }, 'INVALID_BIDDING_OPTION'],
    ['gimmick missing', make({ biddingOption: 'GIMMICK', gimmick: null }), 'INVALID_GIMMICK'],
    ['special rules missing', { ...make(), specialRules: undefined }, 'INVALID_SPECIAL_RULES'],
    ['special rule not boolean', { ...make(), specialRules: { allowNil: 'yes' } }, 'INVALID_SPECIAL_RULES'],
    ['not an object', 42, 'INVALID_INPUT'],
  ] as const)('rejects %s', (_name, input, code) => {
    const r = validateSettings(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBe(code);
      expect(r.message.length).toBeGreaterThan(0);
    }
  });

  it.each([
    make({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: '4 OR NIL' }),
    make({ gameMode: 'SOLO', biddingOption: 'REG', gimmick: 'SUICIDE' }), // gimmick ignored unless GIMMICK
    make({ biddingOption: 'MIRROR' }),
    make({ biddingOption: 'WHIZ', sr: { screamer: true } }),
    make({ sr: { allowNil: true, allowBlindNil: true, assassin: true } }),
    make({ sr: { allowNil: false } }),
    make({ biddingOption: 'GIMMICK', gimmick: 'SUICIDE', sr: { allowBlindNil: true } }),
    make({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: '4 OR NIL', sr: { allowBlindNil: true } }),
    make({ biddingOption: 'REG', gimmick: 'BID 3', sr: { allowBlindNil: true } }), // the gimmick only counts with GIMMICK
  ])('accepts valid settings %#', (s) => {
    expect(validateSettings(s).ok).toBe(true);
  });

  it('accepts the spec creation request (gimmick name as biddingOption, gamePlayOption REG)', () => {
    const r = validateSettings({
      gameMode: 'PARTNERS',
      biddingOption: 'BID HEARTS',
      gamePlayOption: 'REG',
      minPoints: -150,
      maxPoints: 300,
      buyIn: 200000,
      specialRules: { screamer: false, assassin: true, allowNil: true, allowBlindNil: false },
    });
    expect(r).toEqual({
      ok: true,
      settings: {
        gameMode: 'PARTNERS',
        biddingOption: 'GIMMICK',
        gimmick: 'BID HEARTS',
        minPoints: -150,
        maxPoints: 300,
        buyIn: 200000,
        specialRules: { screamer: false, assassin: true, allowNil: true, allowBlindNil: false },
      },
    });
    const s = make({ biddingOption: 'GIMMICK', gimmick: 'CRAZY ACES' });
    const back = validateSettings(toCreateGameRequest(s));
    expect(back.ok && back.settings).toEqual(s);
  });
});

describe('applySettingsChange (form coupling, §4)', () => {
  it('SOLO while SUICIDE switches the gimmick to 4 OR NIL', () => {
    const s = make({ biddingOption: 'GIMMICK', gimmick: 'SUICIDE' });
    const n = applySettingsChange(s, { field: 'gameMode', value: 'SOLO' });
    expect(n.gimmick).toBe('4 OR NIL');
    expect(s.gimmick).toBe('SUICIDE');
    // the default form (REG with SUICIDE preselected) also switches
    expect(applySettingsChange(DEFAULT_SETTINGS, { field: 'gameMode', value: 'SOLO' }).gimmick).toBe('4 OR NIL');
    // SUICIDE cannot be selected in SOLO
    expect(applySettingsChange(n, { field: 'gimmick', value: 'SUICIDE' }).gimmick).toBe('4 OR NIL');
  });
  it('MIRROR forces nil on / blind nil off and locks the toggles', () => {
    const s = make({ sr: { allowNil: false } });
    const m = applySettingsChange(s, { field: 'biddingOption', value: 'MIRROR' });
    expect(m.specialRules).toMatchObject({ allowNil: true, allowBlindNil: false });
    expect(applySettingsChange(m, { field: 'allowNil', value: false }).specialRules.allowNil).toBe(true);
    expect(applySettingsChange(m, { field: 'allowBlindNil', value: true }).specialRules.allowBlindNil).toBe(false);
    expect(settingsControlState(m)).toMatchObject({ nilEnabled: false, blindNilEnabled: false, gimmickEnabled: false });
    const b = applySettingsChange(make({ sr: { allowBlindNil: true } }), { field: 'biddingOption', value: 'MIRROR' });
    expect(b.specialRules.allowBlindNil).toBe(false);
  });
  it('nil off turns blind nil off; blind nil on turns nil on', () => {
    const s = make({ sr: { allowBlindNil: true } });
    expect(applySettingsChange(s, { field: 'allowNil', value: false }).specialRules).toMatchObject({
      allowNil: false,
      allowBlindNil: false,
    });
    expect(
      applySettingsChange(make({ sr: { allowNil: false } }), { field: 'allowBlindNil', value: true }).specialRules,
    ).toMatchObject({ allowNil: true, allowBlindNil: true });
    expect(settingsControlState(make({ sr: { allowNil: false } })).blindNilEnabled).toBe(false);
  });
  it('screamer and assassin exclude each other', () => {
    const s = applySettingsChange(DEFAULT_SETTINGS, { field: 'screamer', value: true });
    const a = applySettingsChange(s, { field: 'assassin', value: true });
    expect(a.specialRules).toMatchObject({ screamer: false, assassin: true });
    expect(applySettingsChange(a, { field: 'screamer', value: true }).specialRules).toMatchObject({
      screamer: true,
      assassin: false,
    });
  });
  it.each([
    ['WHIZ', { field: 'biddingOption', value: 'WHIZ' }],
    ['MIRROR', { field: 'biddingOption', value: 'MIRROR' }],
  ] as const)('%s turns blind nil off and disables it (clarification 1)', (_n, change) => {
    const on = make({ sr: { allowBlindNil: true } });
    const n = applySettingsChange(on, change);
    expect(n.specialRules.allowBlindNil).toBe(false);
    expect(settingsControlState(n).blindNilEnabled).toBe(false);
    expect(applySettingsChange(n, { field: 'allowBlindNil', value: true }).specialRules.allowBlindNil).toBe(false);
    expect(validateSettings(n).ok).toBe(true);
  });
  it.each(['BID 3', 'BID HEARTS', 'CRAZY ACES'] as const)(
    'gimmick %s turns blind nil off and disables it (clarification 1)',
    (g) => {
      const gim = make({ biddingOption: 'GIMMICK', gimmick: 'SUICIDE', sr: { allowBlindNil: true } });
      expect(settingsControlState(gim).blindNilEnabled).toBe(true);
      const n = applySettingsChange(gim, { field: 'gimmick', value: g });
      expect(n.specialRules.allowBlindNil).toBe(false);
      expect(settingsControlState(n).blindNilEnabled).toBe(false);
      expect(applySettingsChange(n, { field: 'allowBlindNil', value: true }).specialRules.allowBlindNil).toBe(false);
      // choosing GIMMICK while BID 3 is the preselected gimmick also turns it off
      const pre = applySettingsChange(make({ gimmick: g, sr: { allowBlindNil: true } }), {
        field: 'biddingOption',
        value: 'GIMMICK',
      });
      expect(pre.specialRules.allowBlindNil).toBe(false);
      expect(settingsControlState(pre).blindNilEnabled).toBe(false);
      // back to an option with blind nil: the toggle is enabled again (and stays off until turned on)
      const back = applySettingsChange(n, { field: 'gimmick', value: '4 OR NIL' });
      expect(settingsControlState(back).blindNilEnabled).toBe(true);
      expect(applySettingsChange(back, { field: 'allowBlindNil', value: true }).specialRules.allowBlindNil).toBe(true);
    },
  );
  it('blind nil stays on and enabled for REG, SUICIDE and 4 OR NIL', () => {
    for (const s of [
      make({ sr: { allowBlindNil: true } }),
      make({ biddingOption: 'GIMMICK', gimmick: 'SUICIDE', sr: { allowBlindNil: true } }),
      make({ biddingOption: 'GIMMICK', gimmick: '4 OR NIL', sr: { allowBlindNil: true } }),
    ]) {
      expect(settingsControlState(s).blindNilEnabled).toBe(true);
      expect(applySettingsChange(s, { field: 'screamer', value: true }).specialRules.allowBlindNil).toBe(true);
    }
  });
  it('property: any sequence of form changes gives valid settings, and Blind Nil is on/enabled only where a blind nil can be bid', () => {
    const change: fc.Arbitrary<SettingsChange> = fc.oneof(
      fc.constantFrom(...GAME_MODES).map((value) => ({ field: 'gameMode', value }) as const),
      fc.constantFrom(...BIDDING_OPTIONS).map((value) => ({ field: 'biddingOption', value }) as const),
      fc.constantFrom(...GIMMICKS).map((value) => ({ field: 'gimmick', value }) as const),
      fc
        .constantFrom('allowNil', 'allowBlindNil', 'screamer', 'assassin')
        .chain((field) => fc.boolean().map((value) => ({ field, value }) as SettingsChange)),
    );
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 12 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (changes, seed) => {
          let s: GameSettings = DEFAULT_SETTINGS;
          for (const c of changes) {
            s = applySettingsChange(s, c);
            const v = validateSettings(s);
            expect(v.ok).toBe(true);
            const ctl = settingsControlState(s);
            if (!blindNilOffered(s)) {
              expect(s.specialRules.allowBlindNil).toBe(false);
              expect(ctl.blindNilEnabled).toBe(false);
            }
            if (!v.ok) return;
            // Blind Nil shown on ⇔ the first bidder of a fresh deal is offered a blind nil (nobody has bid yet).
            const dealt = apply(createGame(v.settings), { type: 'deal', seed });
            if (!dealt.ok) throw new Error(dealt.error);
            const st = dealt.state;
            if (st.phase === 'BIDDING' && st.turn !== null && st.bids.every((b) => b === null)) {
              expect(legalBids(viewFor(st, st.turn)).blindNil).toBe(v.settings.specialRules.allowBlindNil);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
  it('gimmick selector is enabled only with GIMMICK', () => {
    expect(settingsControlState(DEFAULT_SETTINGS).gimmickEnabled).toBe(false);
    expect(
      settingsControlState(applySettingsChange(DEFAULT_SETTINGS, { field: 'biddingOption', value: 'GIMMICK' }))
        .gimmickEnabled,
    ).toBe(true);
  });
  it('every sequence of changes from the defaults stays valid', () => {
    let s: GameSettings = DEFAULT_SETTINGS;
    const changes = [
      { field: 'biddingOption', value: 'GIMMICK' },
      { field: 'gameMode', value: 'SOLO' },
      { field: 'allowBlindNil', value: true },
      { field: 'biddingOption', value: 'MIRROR' },
      { field: 'assassin', value: true },
      { field: 'screamer', value: true },
      { field: 'buyIn', value: 1_234_567 },
      { field: 'minPoints', value: -999 },
      { field: 'maxPoints', value: 9999 },
      { field: 'gameMode', value: 'PARTNERS' },
      { field: 'biddingOption', value: 'REG' },
      { field: 'allowNil', value: false },
    ] as const;
    for (const c of changes) {
      s = applySettingsChange(s, c);
      expect(validateSettings(s).ok).toBe(true);
    }
    expect(s.buyIn).toBe(1_200_000);
    expect(s.minPoints).toBe(-250);
    expect(s.maxPoints).toBe(650);
  });
});

describe('steppers and formatting (§9)', () => {
  it.each([
    [100000, 150000, 100000],
    [950000, 1000000, 900000],
    [1000000, 1100000, 950000],
    [1100000, 1200000, 1000000],
    [1_000_000_000, 1_000_000_000, 999_900_000],
  ])('buy-in %i: next %i prev %i', (b, n, p) => {
    expect(nextBuyIn(b)).toBe(n);
    expect(prevBuyIn(b)).toBe(p);
  });
  it('points steppers clamp', () => {
    expect(nextMinPoints(-100)).toBe(-100);
    expect(prevMinPoints(-100)).toBe(-150);
    expect(prevMinPoints(-250)).toBe(-250);
    expect(nextMaxPoints(650)).toBe(650);
    expect(nextMaxPoints(500)).toBe(550);
    expect(prevMaxPoints(100)).toBe(100);
  });
  it.each([
    [100000, '100k'],
    [150000, '150k'],
    [950000, '950k'],
    [1000000, '1.0mil'],
    [1500000, '1.5mil'],
    [12300000, '12.3mil'],
  ])('formatBuyIn(%i) = %s', (n, s) => expect(formatBuyIn(n)).toBe(s));
  it.each([
    [0, '0'],
    [950, '950'],
    [1500, '1.5k'],
    [100000, '100k'],
    [5000000, '5M'],
    [1250000, '1.25M'],
    [-2500, '-2.5k'],
    // issue 15: a change is not rounded away
    [5080000, '5.08M'],
    [1080000, '1.08M'],
    [2160000, '2.16M'],
    [4950000, '4.95M'],
    [5045000, '5.045M'],
    [12345678, '12.34M'],
    [999999, '999.9k'],
    [1999, '1.999k'],
    [33333, '33.33k'],
    [1_234_567_890, '1234M'],
  ])('formatCoins(%i) = %s', (n, s) => expect(formatCoins(n)).toBe(s));
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1,000'],
    [5080000, '5,080,000'],
    [-2500, '-2,500'],
    [1_234_567_890, '1,234,567,890'],
  ])('formatCoinsExact(%i) = %s', (n, s) => expect(formatCoinsExact(n)).toBe(s));
  it('compact coins keep every change of at least 0.1% (four significant digits) visible', () => {
    for (const base of [1_000, 5_000_000, 123_400, 9_990_000]) {
      const step = Math.max(1, base / 1000);
      expect(formatCoins(base + Math.ceil(step) * 2)).not.toBe(formatCoins(base));
    }
  });
});

describe('toListItemRules', () => {
  it.each([
    [make(), 'REGULAR', 'NONE'],
    [make({ biddingOption: 'WHIZ' }), 'WHIZ', 'NONE'],
    [make({ biddingOption: 'MIRROR' }), 'MIRROR', 'NONE'],
    [make({ gameMode: 'SOLO' }), 'SOLO', 'NONE'],
    [make({ biddingOption: 'GIMMICK', gimmick: '4 OR NIL' }), 'REGULAR', 'BID4NIL'],
    [make({ biddingOption: 'GIMMICK', gimmick: 'BID 3' }), 'REGULAR', 'BID3'],
    [make({ biddingOption: 'GIMMICK', gimmick: 'BID HEARTS' }), 'REGULAR', 'BIDHEARTS'],
    [make({ biddingOption: 'GIMMICK', gimmick: 'SUICIDE' }), 'REGULAR', 'SUICIDE'],
    [make({ gameMode: 'SOLO', biddingOption: 'GIMMICK', gimmick: 'CRAZY ACES' }), 'SOLO', 'CRAZY ACES'],
  ] as const)('%# → %s / %s', (s, gameType, forcedBid) => {
    const r = toListItemRules(s);
    expect(r.rules.gameType).toBe(gameType);
    expect(r.forcedBid).toBe(forcedBid);
    expect(r.rules.coinAmount).toBe(s.buyIn);
  });
});
