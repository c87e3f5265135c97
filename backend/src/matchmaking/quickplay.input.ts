/**
 * Quick play's messages (issue #29): socket `quickplay_join`, `play_bots_now` (and HTTP `POST /api/quickplay/bots`),
 * `partner_invite`, `partner_accept`, `partner_decline`. Whether the server offers the mode, and the queue's
 * state, are the service's call; these check that the message is well formed.
 */
import { QUICKPLAY_BOT_LEVELS, QUICKPLAY_ERRORS, STAKE_BANDS } from '@spades/common';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { PayloadInput } from '../common/payload';

const MODES = ['PARTNERS', 'SOLO'];

export class QuickPlayJoinInput extends PayloadInput {
  @IsIn(MODES, { message: QUICKPLAY_ERRORS.badMode })
  mode!: 'PARTNERS' | 'SOLO';

  @IsIn(STAKE_BANDS.map((b) => b.key), { message: QUICKPLAY_ERRORS.badStake })
  stake!: (typeof STAKE_BANDS)[number]['key'];

  @IsIn(['normal', 'fast'], { message: QUICKPLAY_ERRORS.badPace })
  pace!: 'normal' | 'fast';

  @IsOptional()
  @IsString({ message: 'partnerId must be a string' })
  partnerId?: string;
}

export class PlayBotsNowInput extends PayloadInput {
  @IsIn(QUICKPLAY_BOT_LEVELS.map((l) => l.key), { message: QUICKPLAY_ERRORS.badLevel })
  level!: (typeof QUICKPLAY_BOT_LEVELS)[number]['key'];

  @IsOptional()
  @IsIn(MODES, { message: QUICKPLAY_ERRORS.badMode })
  mode?: 'PARTNERS' | 'SOLO';
}

export class PartnerInviteInput extends QuickPlayJoinInput {
  @IsUUID('all', { message: 'userId must be a user id' })
  userId!: string;
}

export class PartnerAnswerInput extends PayloadInput {
  @IsUUID('all', { message: 'fromId must be a user id' })
  fromId!: string;
}
