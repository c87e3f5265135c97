/**
 * Coming to a table and inviting to it (issue #29): HTTP bodies (`POST /api/games/:id/join`, `spectate`, `invite`,
 * `remove-player`; the table is the path's `:id`) and their socket events (with `gameId`).
 */
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsText, PayloadInput } from '../common/payload';
import { GameIdInput, IsSeat, REQUEST_ERRORS, tableAliases, toSeat } from './game-id.input';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' || value === null ? undefined : value);

/** HTTP join body: an optional seat (a numeric string accepted) and invite token. */
export class JoinSeatInput extends PayloadInput {
  static normalize = tableAliases;

  @IsOptional()
  @Transform(toSeat)
  @IsSeat()
  seatIndex?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString({ message: REQUEST_ERRORS.INVITE })
  @MaxLength(200, { message: REQUEST_ERRORS.INVITE })
  invite?: string;
}

/** socket `join_game`. */
export class JoinGameInput extends GameIdInput {
  @IsOptional()
  @Transform(toSeat)
  @IsSeat()
  seatIndex?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString({ message: REQUEST_ERRORS.INVITE })
  @MaxLength(200, { message: REQUEST_ERRORS.INVITE })
  invite?: string;
}

/** HTTP spectate body: an optional invite token. */
export class SpectateBodyInput extends PayloadInput {
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString({ message: REQUEST_ERRORS.INVITE })
  @MaxLength(200, { message: REQUEST_ERRORS.INVITE })
  invite?: string;
}

/** socket `join_game_as_spectator`. */
export class SpectateInput extends GameIdInput {
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString({ message: REQUEST_ERRORS.INVITE })
  @MaxLength(200, { message: REQUEST_ERRORS.INVITE })
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
