/**
 * The console's table actions (issue #29): `POST /api/admin/tables/:id/close` `{ reason }` and
 * `…/remove-player` `{ userId, reason }`, checked before the handler runs (400 `{ message }`, nothing changes).
 */
import { CONSOLE_TABLE_ERRORS, STAFF_REASON_MAX } from '@spades/common';
import { Transform } from 'class-transformer';
import { IsString, IsUUID, Length } from 'class-validator';
import { PayloadInput } from '../common/payload';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CloseTableInput extends PayloadInput {
  @Transform(trim)
  @IsString({ message: CONSOLE_TABLE_ERRORS.REASON_REQUIRED })
  @Length(1, STAFF_REASON_MAX, { message: CONSOLE_TABLE_ERRORS.REASON_REQUIRED })
  reason!: string;
}

export class RemoveTablePlayerInput extends CloseTableInput {
  @IsUUID('all', { message: CONSOLE_TABLE_ERRORS.BAD_USER })
  userId!: string;
}
