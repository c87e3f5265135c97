/**
 * Issue #28: quick play (matchmaking) and "Play bots now" on the wire. Socket events (client → server, each with an
 * ack `{ok:true,…} | {ok:false,message}`): `quickplay_join`, `quickplay_leave`, `quickplay_bots` (accept the bot
 * offer), `quickplay_status`, `partner_invite` / `partner_accept` / `partner_decline`, `play_bots_now`.
 * Server → client: `quickplay_status`, `quickplay_matched`, `quickplay_bot_offer`, `partner_invitation`,
 * `partner_update`. HTTP: `POST /api/quickplay/bots` (play bots now), `GET /api/quickplay/status`,
 * `GET|PUT /api/users/me/partners` (preferred partners).
 */
import type { QueueMode, QueuePace } from '../matchmaking';

/** Stake bands of quick play: the table's buy-in. */
export const STAKE_BANDS = [
  { key: 'low', label: 'Low', buyIn: 100_000 },
  { key: 'mid', label: 'Medium', buyIn: 1_000_000 },
  { key: 'high', label: 'High', buyIn: 10_000_000 },
] as const;
export type StakeBand = (typeof STAKE_BANDS)[number]['key'];

export const QUICKPLAY_PACES: readonly { key: QueuePace; label: string }[] = [
  { key: 'normal', label: 'Normal' },
  { key: 'fast', label: 'Fast' },
];

/** Bot levels of "Play bots now": each a distinct bot of common/src/bots. */
export const QUICKPLAY_BOT_LEVELS = [
  { key: 'easy', label: 'Easy', bot: 'basic' },
  { key: 'normal', label: 'Normal', bot: 'heuristic' },
  { key: 'strong', label: 'Strong', bot: 'strong' },
] as const;
export type BotLevelKey = (typeof QUICKPLAY_BOT_LEVELS)[number]['key'];

/** The bot's label shown at the table, e.g. "Easy bot". */
export function botLevelLabel(key: BotLevelKey): string {
  return `${QUICKPLAY_BOT_LEVELS.find((l) => l.key === key)?.label ?? key} bot`;
}

export interface QuickPlayJoinPayload {
  mode: QueueMode;
  stake: StakeBand;
  pace: QueuePace;
  /** Queue as a team with this partner (an accepted partner invitation; PARTNERS only). */
  partnerId?: string;
}

export interface PlayBotsNowPayload {
  level: BotLevelKey;
  mode?: QueueMode;
}

/** The caller's place in the queue (or `queued: false`). */
export interface QuickPlayStatus {
  queued: boolean;
  mode?: QueueMode;
  stake?: StakeBand;
  pace?: QueuePace;
  partner?: { userId: string; username: string } | null;
  /** Epoch ms the ticket joined. */
  since?: number;
  /** Players waiting in the same queue (the caller included). */
  waiting: number;
  /** Estimated wait in ms. */
  estimatedWaitMs?: number;
  /** The bot offer is up (accept with `quickplay_bots`, or keep waiting). */
  botOffer?: boolean;
}

export interface QuickPlayMatched {
  gameId: string;
  /** Rated: four humans sit. */
  rated: boolean;
  /** Partner at the table (PARTNERS), for "Keep partner". */
  partnerId: string | null;
}

export interface PartnerInvitation {
  fromId: string;
  fromName: string;
  mode: QueueMode;
  stake: StakeBand;
  pace: QueuePace;
}

export interface PartnerUpdate {
  /** `accepted`: the team is queued; `declined`: the friend said no. */
  state: 'accepted' | 'declined';
  userId: string;
  username: string;
}

export interface PreferredPartner {
  userId: string;
  username: string;
  /** PARTNERS games together in the last 90 days. */
  games: number;
}

export interface PreferredPartnersBody {
  userIds: string[];
}

/** Refusals of quick play (one place). */
export const QUICKPLAY_ERRORS = {
  badMode: 'mode must be PARTNERS or SOLO',
  badStake: 'stake must be low, mid or high',
  badPace: 'pace must be normal or fast',
  badLevel: 'level must be easy, normal or strong',
  seated: 'You are already seated at a table',
  soloPartner: 'Partners queue together only in PARTNERS mode',
  partnerSelf: 'You cannot partner with yourself',
  noInvitation: 'That partner invitation is no longer open',
  partnerBusy: 'Your partner is already queued or seated',
  notFriend: 'You can invite only a friend who has added you',
  presetOff: 'This server does not offer quick play in that mode',
  tooManyPartners: 'At most 10 preferred partners',
} as const;
