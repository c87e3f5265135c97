import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from '@spades/common';
import { IsDefined, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { IsEmailText, IsExactText, IsUsername } from '../common/text.validation';

export class RegisterDto {
  @ApiProperty({ example: 'ace_of_spades', pattern: USERNAME_PATTERN.source })
  @IsDefined({ message: 'username is required' })
  @IsString({ message: 'username must be a string' })
  @IsUsername()
  username: string;

  @ApiProperty({ example: 'ace@example.com', maxLength: EMAIL_MAX })
  @IsDefined({ message: 'email is required' })
  @IsString({ message: 'email must be a string' })
  @MaxLength(EMAIL_MAX, { message: `email must be at most ${EMAIL_MAX} characters` })
  @IsEmailText()
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @IsDefined({ message: 'password is required' })
  @IsString({ message: 'password must be a string' })
  @Length(PASSWORD_MIN, PASSWORD_MAX, { message: `password must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters` })
  password: string;

  /** Issue #25: needed while the host's registration is "invite codes only" (GET /api/settings/public). */
  @ApiPropertyOptional({ example: 'ABCD-EFGH-JKMN', maxLength: 40 })
  @ValidateIf((o: RegisterDto) => o.inviteCode !== undefined && o.inviteCode !== null)
  @IsString({ message: 'inviteCode must be a string' })
  @MaxLength(40, { message: 'inviteCode must be at most 40 characters' })
  inviteCode?: string | null;
}

export class LoginDto {
  @ApiProperty()
  @IsDefined({ message: 'email is required' })
  @IsString({ message: 'email must be a string' })
  @MaxLength(EMAIL_MAX, { message: `email must be at most ${EMAIL_MAX} characters` })
  @IsExactText('email')
  email: string;

  @ApiProperty()
  @IsDefined({ message: 'password is required' })
  @IsString({ message: 'password must be a string' })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  password: string;
}

export class UpdateProfileDto {
  @ApiPropertyOptional({ pattern: USERNAME_PATTERN.source })
  @ValidateIf((o: UpdateProfileDto) => o.username !== undefined)
  @IsString({ message: 'username must be a string' })
  @IsUsername()
  username?: string;

  @ApiPropertyOptional({
    nullable: true,
    description: 'data:image/jpeg|png|webp;base64,... (decoded ≤ 512 KB); null removes the avatar',
  })
  @ValidateIf((o: UpdateProfileDto) => o.avatar !== undefined && o.avatar !== null)
  @IsString({ message: 'avatar must be a data URL string or null' })
  avatar?: string | null;
}
