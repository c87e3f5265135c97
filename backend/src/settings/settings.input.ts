/**
 * The console's settings and invite codes (issue #29), checked before the handler runs (400 `{ message }`):
 * `PUT /api/admin/settings` `{ changes, reason }` (common's `checkSettingsPatch`), `POST /api/admin/invite-codes`
 * `{ maxUses?, expiresInDays?, note?, reason }`, `POST /api/admin/invite-codes/:code/revoke` `{ reason }`.
 */
import { checkLineText, checkSettingsPatch, INVITE_CODE_MAX_USES, INVITE_CODE_NOTE_MAX } from '@spades/common';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PayloadInput, Satisfies } from '../common/payload';
import { staffReason } from './staff-reason';

export class StaffReasonBodyInput extends PayloadInput {
  @Satisfies(staffReason)
  reason!: string;
}

export class SettingsUpdateInput extends StaffReasonBodyInput {
  @Satisfies(checkSettingsPatch)
  changes!: unknown;
}

const MAX_USES = `maxUses must be 1–${INVITE_CODE_MAX_USES} or null (unlimited)`;
const DAYS = 'expiresInDays must be 1–365 or null (never)';

export class CreateInviteCodeInput extends StaffReasonBodyInput {
  @IsOptional()
  @IsInt({ message: MAX_USES })
  @Min(1, { message: MAX_USES })
  @Max(INVITE_CODE_MAX_USES, { message: MAX_USES })
  maxUses?: number | null;

  @IsOptional()
  @IsInt({ message: DAYS })
  @Min(1, { message: DAYS })
  @Max(365, { message: DAYS })
  expiresInDays?: number | null;

  @IsOptional()
  @Satisfies((v) => {
    const t = checkLineText(v, 'The note');
    if (!t.ok) return t;
    return t.text.length > INVITE_CODE_NOTE_MAX
      ? { ok: false, message: `The note must be at most ${INVITE_CODE_NOTE_MAX} characters` }
      : t;
  })
  note?: string | null;
}
