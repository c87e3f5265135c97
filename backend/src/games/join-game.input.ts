/**
 * Coming to a table and inviting to it (issue #29): HTTP bodies (`POST /api/games/:id/join`, `spectate`, `invite`,
 * `remove-player`; the table is the path's `:id`) and their socket events (with `gameId`).
 */
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsText, PayloadInput } from '../common/payload';
import { GameIdInput, IsSeat, REQUEST_ERRORS, tableAliases, toSeat } from './game-id.input';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' || value === null ? undefined : value);

/** Several property decorators as one, applied in the order a stack of them written top to bottom would be. */
const stack =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of [...decorators].reverse()) d(target, key);
  };

/** An optional invite token ('' and null read as absent), at most 200 characters: the same rule on every body. */
const IsInviteToken = () =>
  stack(
    IsOptional(),
    Transform(emptyToUndefined),
    IsString({ message: REQUEST_ERRORS.INVITE }),
    MaxLength(200, { message: REQUEST_ERRORS.INVITE }),
  );

/** An optional seat index (a numeric string accepted). */
const IsOptionalSeat = () => stack(IsOptional(), Transform(toSeat), IsSeat());

/** HTTP join body: an optional seat (a numeric string accepted) and invite token. */
export class JoinSeatInput extends PayloadInput {
  static normalize = tableAliases;

  @IsOptionalSeat()
  seatIndex?: number;

  @IsInviteToken()
  invite?: string;
}

/** socket `join_game`. */
export class JoinGameInput extends GameIdInput {
  @IsOptionalSeat()
  seatIndex?: number;

  @IsInviteToken()
  invite?: string;
}

/** HTTP spectate body: an optional invite token. */
export class SpectateBodyInput extends PayloadInput {
  @IsInviteToken()
  invite?: string;
}

/** socket `join_game_as_spectator`. */
export class SpectateInput extends GameIdInput {
  @IsInviteToken()
  invite?: string;
}

/** HTTP invite body: the friend and whether a seat is held for them. */
export class InviteBodyInput extends PayloadInput {
  @IsText({ missing: REQUEST_ERRORS.USER_ID, max: 100 })
  userId!: string;

  @IsOptional()
  @IsBoolean({ message: 'reserveSeat must be true or false' })
  reserveSeat?: boolean;
}

/** socket `invite_player`. */
export class InvitePlayerInput extends GameIdInput {
  @IsText({ missing: REQUEST_ERRORS.USER_ID, max: 100 })
  userId!: string;

  @IsOptional()
  @IsBoolean({ message: 'reserveSeat must be true or false' })
  reserveSeat?: boolean;
}

/** HTTP remove-player body: the player the host sends away. */
export class RemovePlayerInput extends PayloadInput {
  @IsText({ missing: REQUEST_ERRORS.USER_ID, max: 100 })
  userId!: string;
}
