/**
 * Issue #31 item 8: the username and password rules, shown on the sign-up forms before the first try (they were
 * only told after a failed sign-up). The same limits as the server's checks (common/src/protocol/http.ts).
 */
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '@spades/common';

export const USERNAME_RULE = `${USERNAME_MIN}–${USERNAME_MAX} characters: letters, digits, _ or -`;
export const PASSWORD_RULE = `At least ${PASSWORD_MIN} characters`;
/** The browser's own check before sending (the server checks again). */
export const USERNAME_INPUT_PATTERN = `[A-Za-z0-9_\\-]{${USERNAME_MIN},${USERNAME_MAX}}`;
export const PASSWORD_LIMITS = { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX };
