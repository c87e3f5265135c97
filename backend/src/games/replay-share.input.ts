/**
 * `POST /api/games/:id/replay/shares` body `{ game? }` (issue #29: one DTO per inbound message): the game number at
 * the table whose replay to share; absent, null or empty means the latest finished game.
 */
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PayloadInput } from '../common/payload';

/** The highest game number a share may name (the same bound as `?game=` on the replay routes). */
export const MAX_GAME_NUMBER = 1_000_000;
const GAME_NUMBER = { message: `game must be an integer between 1 and ${MAX_GAME_NUMBER}` };

/** '' and null are "not given"; a string of digits is its number (form-style clients); anything else stays as sent. */
const toGameNumber = ({ value }: { value: unknown }): unknown =>
  value === '' || value === null ? undefined : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

export class ReplayShareBodyInput extends PayloadInput {
  @Transform(toGameNumber)
  @IsOptional()
  @IsInt(GAME_NUMBER)
  @Min(1, GAME_NUMBER)
  @Max(MAX_GAME_NUMBER, GAME_NUMBER)
  game?: number;
}
