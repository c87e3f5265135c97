/**
 * Bot seat commands (issue #29): HTTP `invite-bot(-midgame)` / `remove-bot(-midgame)` bodies and the socket
 * `invite_bot` / `remove_bot` / `fill_seat_with_bot`. `requesterId` (spec §7) is accepted for compatibility; the
 * handler refuses it unless it is the token's user (`checkRequester`).
 */
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { PayloadInput } from '../common/payload';
import { GameIdInput, IsSeat, REQUEST_ERRORS, tableAliases, toSeat } from './game-id.input';
import { TableError } from './table';

export class BotSeatBodyInput extends PayloadInput {
  static normalize = tableAliases;

  @Transform(toSeat)
  @IsSeat()
  seatIndex!: number;

  @IsOptional()
  @IsString({ message: 'requesterId must be a string' })
  requesterId?: string;
}

export class BotSeatInput extends GameIdInput {
  @Transform(toSeat)
  @IsSeat()
  seatIndex!: number;

  @IsOptional()
  @IsString({ message: 'requesterId must be a string' })
  requesterId?: string;
}

/** `requesterId`, when sent, must be the token's user (403; nothing changes). */
export function checkRequester(input: { requesterId?: string }, userId: string): void {
  if (input.requesterId !== undefined && input.requesterId !== userId)
    throw new TableError(REQUEST_ERRORS.REQUESTER, 403);
}
