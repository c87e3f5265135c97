import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class FriendDto {
  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'friendId is required' })
  @IsString({ message: 'friendId must be a string' })
  @MinLength(1, { message: 'friendId must not be empty' })
  @MaxLength(64, { message: 'friendId is too long' })
  friendId: string;
}

export class BlockDto {
  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'blockId is required' })
  @IsString({ message: 'blockId must be a string' })
  @MinLength(1, { message: 'blockId must not be empty' })
  @MaxLength(64, { message: 'blockId is too long' })
  blockId: string;
}

export class StatsQueryDto {
  @ApiProperty({ required: false, enum: ['ALL', 'PARTNERS', 'SOLO'], default: 'ALL' })
  @IsOptional()
  @IsIn(['ALL', 'PARTNERS', 'SOLO'], { message: 'mode must be ALL, PARTNERS or SOLO' })
  mode?: 'ALL' | 'PARTNERS' | 'SOLO';
}
