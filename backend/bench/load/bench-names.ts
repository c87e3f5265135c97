/** Letters and digits that no look-alike rule of `nameKey` (common/src/protocol/text.ts) folds together. */
const NAME_DIGITS = '23456789abcdefghjkpqstuxyz';
const distinct = (n: number): string => {
  let out = '';
  do {
    out = NAME_DIGITS[n % NAME_DIGITS.length] + out;
    n = Math.floor(n / NAME_DIGITS.length);
  } while (n > 0);
  return out;
};

/**
 * The bench account of table `ti`, socket `k`: unique under the server's look-alike rule (issue #24), which
 * refused base-36 names such as table 1 (`…1x0`) next to table 18 (`…ix0`) as "already taken".
 */
export function benchUsername(runId: string, ti: number, k: number): string {
  return `lb${distinct(parseInt(runId, 16) || 0)}${distinct(ti)}x${distinct(k)}`.slice(0, 20);
}
