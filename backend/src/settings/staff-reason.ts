import { BadRequestException } from '@nestjs/common';
import { checkLineText, STAFF_REASON_MAX } from '@spades/common';

/** The reason every console action takes: single-line text of 1–STAFF_REASON_MAX characters, or 400 `{ message }`. */
export function staffReason(input: unknown): string {
  if (typeof input !== 'string')
    throw new BadRequestException(`A reason of 1–${STAFF_REASON_MAX} characters is required`);
  const t = checkLineText(input, 'The reason');
  if (!t.ok) throw new BadRequestException(t.message);
  if (t.text.length < 1 || t.text.length > STAFF_REASON_MAX)
    throw new BadRequestException(`A reason of 1–${STAFF_REASON_MAX} characters is required`);
  return t.text;
}
