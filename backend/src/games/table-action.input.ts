/**
 * The moves and talk at a table (issue #29): socket `make_bid`, `play_card`, `claim`, `reveal_cards`,
 * `chat_message`, `quick_chat`. Whether a move is legal is the rules' call (a refusal with its EngineErrorCode);
 * these check only that the message is well formed.
 */
import { parseChatInput, QUICK_CHAT_ERROR, quickChatPreset } from '@spades/common';
import { IsBoolean, IsDefined, IsInt, IsOptional, ValidateBy } from 'class-validator';
import { IsChatText } from '../common/text.validation';
import { TableActionInput } from './game-id.input';

export class MakeBidInput extends TableActionInput {
  @IsInt({ message: 'bid must be a whole number' })
  bid!: number;

  @IsOptional()
  @IsBoolean({ message: 'blind must be true or false' })
  blind?: boolean;
}

export class PlayCardInput extends TableActionInput {
  @IsDefined({ message: 'card is required' })
  @ValidateBy({
    name: 'isWireCard',
    validator: {
      validate: (v: unknown) =>
        (typeof v === 'string' && v.length > 0 && v.length <= 20) ||
        (!!v && typeof v === 'object' && !Array.isArray(v) && 'suit' in v && 'rank' in v),
      defaultMessage: () => 'card must be a card (e.g. "AS" or { suit, rank })',
    },
  })
  card!: unknown;
}

export class ChatMessageInput extends TableActionInput {
  @IsChatText()
  message!: unknown;
}

/** The text as stored: trimmed, zero-width characters stripped (of a message that passed its DTO). */
export function chatText(input: ChatMessageInput): string {
  const r = parseChatInput(input.message);
  return r.ok ? r.text : '';
}

export class QuickChatInput extends TableActionInput {
  @ValidateBy({
    name: 'isQuickChat',
    validator: { validate: (v: unknown) => quickChatPreset(v) !== null, defaultMessage: () => QUICK_CHAT_ERROR },
  })
  id!: string;
}
