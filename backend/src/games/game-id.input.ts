/**
 * The table messages' schemas (issue #29), shared by the socket gateway and the HTTP controller: the parts every
 * table message has (`gameId`, the client's `actionId`, a seat) and the legacy spellings clients still send.
 */
import { checkActionId } from '@spades/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import { IsText, objectOf, PayloadInput, type PayloadObject } from '../common/payload';

export const REQUEST_ERRORS = {
  GAME_ID: 'gameId is required',
  SEAT: 'seatIndex must be 0, 1, 2 or 3',
  INVITE: 'invite must be a string',
  ACTION_ID: 'actionId must be a string',
  ACTION_ID_LENGTH: 'actionId must be 1-100 characters',
  REQUESTER: 'requesterId does not match the signed-in user',
  USER_ID: 'userId is required',
  PRIVATE: 'private must be true or false',
} as const;

/** `id` → `gameId`, `seat` → `seatIndex`, `clientActionId` → `actionId` (older clients). */
export function tableAliases(data: unknown): PayloadObject {
  const o = objectOf(data);
  return {
    ...o,
    gameId: o.gameId ?? o.id,
    seatIndex: o.seatIndex ?? o.seat,
    actionId: o.actionId ?? o.clientActionId,
  };
}

/** '' / null → absent; a numeric string → its number (form posts). */
export const toSeat = ({ value }: { value: unknown }) =>
  value === '' || value === null ? undefined : typeof value === 'string' ? Number(value) : value;

/** A seat 0-3. */
export const IsSeat = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSeat',
      validator: {
        validate: (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 3,
        defaultMessage: () => REQUEST_ERRORS.SEAT,
      },
    },
    options,
  );

/** The client's idempotency key: a string (or a number, sent as its text) of 1-100 printable ASCII characters. */
const IsActionId = () =>
  ValidateBy({
    name: 'isActionId',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length >= 1 && v.length <= 100 && checkActionId(v).ok,
      defaultMessage: (args) => {
        const v: unknown = args?.value;
        if (typeof v !== 'string') return REQUEST_ERRORS.ACTION_ID;
        if (v.length < 1 || v.length > 100) return REQUEST_ERRORS.ACTION_ID_LENGTH;
        const r = checkActionId(v);
        return r.ok ? REQUEST_ERRORS.ACTION_ID : r.message;
      },
    },
  });

/** Every table message: the table it is about. */
export class GameIdInput extends PayloadInput {
  static normalize = tableAliases;

  @IsText({ missing: REQUEST_ERRORS.GAME_ID, max: 100 })
  gameId!: string;
}

/** A table command the client may repeat safely: its optional `actionId`. */
export class TableActionInput extends GameIdInput {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @IsActionId()
  actionId?: string;
}

/** `watch_lobby`: `{ full: true }` asks for the full list instead of deltas. */
export class WatchLobbyInput extends PayloadInput {
  @IsOptional()
  @IsBoolean({ message: 'full must be true or false' })
  full?: boolean;
}
