/**
 * `POST /api/users/me/deletion` (issue #29): `{ password }` or, for an account without one, `{ confirm }` (the
 * username typed). The shape is checked here, before the handler; which one the account needs is the service's.
 */
import { IsOptional, IsString } from 'class-validator';
import { PayloadInput } from '../common/payload';

export class DeleteAccountInput extends PayloadInput {
  @IsOptional()
  @IsString({ message: 'password must be a string' })
  password?: string;

  @IsOptional()
  @IsString({ message: 'confirm must be the username, as text' })
  confirm?: string;
}
