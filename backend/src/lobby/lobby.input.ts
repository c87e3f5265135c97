/**
 * The lobby gateway's messages (issue #29): socket `authenticate` (answered with `authenticated`) and
 * `lobby_chat_message` (a string or `{ message }`; the chat text rules of common's `parseChatInput`).
 */
import { IsString, MaxLength } from 'class-validator';
import { objectOf, PayloadInput, type PayloadObject } from '../common/payload';
import { IsChatText } from '../common/text.validation';

export class AuthenticateInput extends PayloadInput {
  /** `{ token }`, or the token itself. */
  static normalize(data: unknown): PayloadObject {
    return { token: data && typeof data === 'object' ? objectOf(data).token : data };
  }

  @IsString({ message: 'token must be a string' })
  @MaxLength(8192, { message: 'token is too long' })
  token!: string;
}

export class LobbyChatMessageInput extends PayloadInput {
  /** `{ message }`, or the text itself. */
  static normalize(data: unknown): PayloadObject {
    return { message: typeof data === 'string' ? data : objectOf(data).message };
  }

  @IsChatText()
  message!: string;
}
