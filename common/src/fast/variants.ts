/** Every valid combination of mode × bidding option × gimmick × nil / blind nil × special rule (for tests and benches). */
import { DEFAULT_SETTINGS, GameSettings, GIMMICKS, validateSettings } from '../rules/settings';

export function allVariants(): GameSettings[] {
  const out: GameSettings[] = [];
  for (const gameMode of ['PARTNERS', 'SOLO'] as const) {
    for (const biddingOption of ['REG', 'WHIZ', 'MIRROR', 'GIMMICK'] as const) {
      const gimmicks = biddingOption === 'GIMMICK' ? GIMMICKS : [null];
      for (const gimmick of gimmicks) {
        for (const [allowNil, allowBlindNil] of [
          [true, false],
          [true, true],
          [false, false],
        ] as const) {
          for (const [screamer, assassin] of [
            [false, false],
            [true, false],
            [false, true],
          ] as const) {
            const r = validateSettings({
              ...DEFAULT_SETTINGS,
              gameMode,
              biddingOption,
              gimmick,
              specialRules: { allowNil, allowBlindNil, screamer, assassin },
            });
            if (r.ok) out.push(r.settings);
          }
        }
      }
    }
  }
  return out;
}

export function variantName(s: GameSettings): string {
  const sr = s.specialRules;
  return [
    s.gameMode,
    s.biddingOption === 'GIMMICK' ? s.gimmick : s.biddingOption,
    sr.allowNil ? (sr.allowBlindNil ? 'nil+blind' : 'nil') : 'no-nil',
    sr.screamer ? 'SCREAMER' : sr.assassin ? 'ASSASSIN' : '',
  ]
    .filter(Boolean)
    .join(' ');
}
