/**
 * The console's player actions (issue #29), checked before the handler runs (400 `{ message }`, nothing changes):
 * `POST /api/admin/players/:id/sanctions` (a SanctionRequest), `…/revoke-sessions` and `sanctions/:id/lift`
 * (`{ reason }`), `…/coins` (`{ direction, amount, reason }`), `…/role` (`{ role, reason }`). The texts are the
 * console's own (MODERATION_MESSAGES); the services keep the same checks for their other callers.
 */
import { COIN_CORRECTION_MAX } from '@spades/common';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { ACCOUNT_ROLES } from '../admin/admin.roles';
import { PayloadInput, Satisfies } from '../common/payload';
import { MODERATION_MESSAGES as M } from './moderation.messages';
import { checkReason, checkSanctionInput } from './sanctions.service';

/** `checkReason`'s rules: a line of text (no controls or bidi), 1–STAFF_REASON_MAX characters. */
export const IsStaffReason = () => Satisfies(checkReason);

export class StaffReasonInput extends PayloadInput {
  @IsStaffReason()
  reason!: string;
}

export class CoinCorrectionInput extends StaffReasonInput {
  @IsIn(['grant', 'deduct'], { message: M.badDirection })
  direction!: 'grant' | 'deduct';

  @IsInt({ message: M.badAmount })
  @Min(1, { message: M.badAmount })
  @Max(COIN_CORRECTION_MAX, { message: M.badAmount })
  amount!: number;
}

export class RoleChangeInput extends StaffReasonInput {
  @IsIn([...ACCOUNT_ROLES], { message: M.badRole })
  role!: string;
}

/** The whole body through the sanction rules (`checkSanctionInput`: kind, minutes, reason, …). */
export class SanctionBodyInput extends PayloadInput {
  @Satisfies(checkSanctionInput, { whole: true })
  kind!: string;
}
